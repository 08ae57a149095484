/**
 * `npm run bench:repairs` (issue 22 item 2): the time from an `orders/paid` webhook to the commit
 * of the order edit that adds its missing gift, at BENCH_RATE orders a minute (100) for
 * BENCH_ORDERS orders (100), against the stand-in platform. The service runs here as it runs in
 * production — HTTP server and its workers (the outbox dispatcher at its configured poll) — and
 * the load generator sends the webhooks from its own process (bench/repairs-load.ts). Prints
 * p50/p95/max beside the 60 s goal. Store: a fresh embedded PGlite, or with DATABASE_URL a fresh
 * database created on that server for the run and dropped after it.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { benchStorage } from './bench-storage.ts';
import { startPlatformStandin } from '../dev/platform/platform.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';
import { orderRepairs } from '../src/db/schema.ts';
import { signSessionToken } from '../src/merchant-admin/session-token.ts';
import { createWorkers, startWorkers, stopWorkers } from '../src/workers.ts';
import { startChild } from './child.ts';
import type { Sent } from './repairs-load.ts';

const env = z
  .object({
    BENCH_ORDERS: z.coerce.number().int().min(1).default(100),
    BENCH_RATE: z.coerce.number().int().min(1).default(100),
    DATABASE_URL: z.string().optional(),
    OUTBOX_POLL_MS: z.string().optional(),
  })
  .parse(process.env);
const print = (text = '') => process.stdout.write(`${text}\n`);
const GOAL_MS = 60_000;
const APP_KEY = 'bench-app';
const SECRET = 'bench-app-secret';
const ADMIN = 'bench-admin-token-0123456789';
const DOMAIN = 'bench-repairs.myshopify.com';

const platform = await startPlatformStandin({ appKey: APP_KEY, appSecret: SECRET });
platform.addShop({ domain: DOMAIN, name: 'Bench', currencyCode: 'USD', ianaTimezone: 'UTC' });
const storage = await benchStorage('repairs', env.DATABASE_URL);
const config = loadConfig({
  LOG_LEVEL: 'silent',
  ADMIN_TOKEN: ADMIN,
  ...storage.settings,
  ...(env.OUTBOX_POLL_MS === undefined ? {} : { OUTBOX_POLL_MS: env.OUTBOX_POLL_MS }),
  PLATFORM_APP_KEY: APP_KEY,
  PLATFORM_APP_SECRET: SECRET,
  PLATFORM_ADMIN_API_URL: platform.url,
  PLATFORM_DISCOUNT_FUNCTION_ID: 'bench-function',
});
const ctx = await createAppContext(config);
await ctx.database.ready;
const app = await buildApp(ctx);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const workers = createWorkers(ctx);
startWorkers(workers);
const load = await startChild<{ type: 'ready' }>(new URL('./repairs-load.ts', import.meta.url).pathname, process.env);
try {
  // Installed as the platform's admin opens the app: the shop row and its platform connection.
  const nowS = Math.floor(Date.now() / 1000);
  const token = signSessionToken({ dest: `https://${DOMAIN}`, aud: APP_KEY, exp: nowS + 60, nbf: nowS - 1 }, SECRET);
  const session = await app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { authorization: `Bearer ${token}` } });
  if (session.statusCode !== 200) throw new Error(`install failed: ${session.statusCode} ${session.body}`);
  const shopId = (session.json() as { shop: { id: string } }).shop.id;
  const rule = {
    name: 'Spend 100, get a tote',
    conditionTree: { type: 'cart.subtotal_gte', value: 10_000 },
    giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/5001', quantity: 1 }] },
    options: { actionType: 'auto_add', discountType: 'percentage', discountValue: 100, discountTitle: 'Free tote' },
  };
  const imported = await app.inject({
    method: 'POST',
    url: `/admin/v1/shops/${shopId}/campaigns/import`,
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { campaigns: [{ name: 'Totes', enabled: true, isDraft: false, rules: [rule] }] },
  });
  if (imported.statusCode !== 200) throw new Error(`import failed: ${imported.body}`);
  const orderIds = Array.from({ length: env.BENCH_ORDERS }, (_, i) => String(6_000_000_000_000_000_000n + BigInt(i)));
  for (const id of orderIds) platform.orderEditing.addOrder(DOMAIN, { id, lineItems: [{ variantId: 4001, quantity: 1 }] });

  print(`store: ${env.DATABASE_URL === undefined ? 'pglite' : 'postgres'}; ${env.BENCH_ORDERS} orders at ${env.BENCH_RATE}/min; outbox poll ${config.outboxPollMs} ms`);
  const { sent } = await load.child.ask<{ sent: Sent[] }>({ type: 'run', url: base, secret: SECRET, domain: DOMAIN, orderIds, perMinute: env.BENCH_RATE }, 'done');
  const deadline = Date.now() + 2 * GOAL_MS;
  const settled = async () => (await ctx.db.select({ status: orderRepairs.status }).from(orderRepairs).where(eq(orderRepairs.shopId, shopId))).filter((r) => !['pending', 'editing', 'reserved'].includes(r.status)).length;
  while ((await settled()) < orderIds.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));

  const latencies = sent
    .map((s) => (platform.orderEditing.ordersOf(DOMAIN).get(s.id)?.edits[0]?.committedAt ?? Number.NaN) - s.sentAt)
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  const answers = sent.map((s) => s.answerMs).sort((a, b) => a - b);
  const statuses = (await ctx.db.select({ status: orderRepairs.status }).from(orderRepairs).where(eq(orderRepairs.shopId, shopId))).reduce<Record<string, number>>(
    (counts, row) => ({ ...counts, [row.status]: (counts[row.status] ?? 0) + 1 }),
    {},
  );
  print(`webhook answers: ${sent.filter((s) => s.status === 200).length}/${sent.length} 200, p50 ${quantile(answers, 0.5).toFixed(0)} ms, p95 ${quantile(answers, 0.95).toFixed(0)} ms`);
  print(`repairs: ${JSON.stringify(statuses)}; committed on the platform: ${latencies.length}/${orderIds.length}`);
  print(`webhook → order edit committed: p50 ${(quantile(latencies, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(latencies, 0.95) / 1000).toFixed(2)} s, max ${(quantile(latencies, 1) / 1000).toFixed(2)} s (goal: p95 ≤ ${GOAL_MS / 1000} s)`);
  print(`verdict: ${latencies.length === orderIds.length && quantile(latencies, 0.95) <= GOAL_MS ? 'within the goal' : 'NOT within the goal'}`);
} finally {
  await load.child.stop();
  await stopWorkers(workers);
  await app.close();
  await ctx.close();
  await platform.close();
  await storage.dispose();
}
