/**
 * `node --conditions=@gcrs/source bench/experiment-results.bench.ts`: the time of
 * GET …/experiments/:id/results (docs/merchant-admin.md "Experiment results") for one shop whose
 * experiment window holds BENCH_EVENTS storefront events from BENCH_VISITORS visitors and
 * BENCH_ORDERS orders with gift lines (half per variant), plus as many events and orders of another
 * shop. DATABASE_URL (and REDIS_URL) name a database of its own: it is filled, not cleaned.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';
import { elapsed, percentile } from '../scripts/bench-env.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const VISITORS = Number(process.env.BENCH_VISITORS ?? 50_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const RUNS = Number(process.env.BENCH_QUERIES ?? 20);
const TOKEN = 'bench-admin-token-0123456789';

const print = (text = '') => process.stdout.write(`${text}\n`);
const ctx = await createAppContext(loadConfig({ ...process.env, ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'silent' }));
const app = await buildApp(ctx);
const admin = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, ...(payload ? { payload: payload as object } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
};
const rule = (name: string) => ({
  name,
  enabled: true,
  conditionTree: { type: 'cart.subtotal_gte', value: 5000 },
  giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 1 }], fallbackOnOOS: false },
  options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100 },
});

async function seedShop(label: string) {
  const shop = (await admin('POST', '/admin/v1/shops', { domain: `${label}-${Date.now()}.example.com`, plan: 'scale' })).shop as { id: string };
  const imported = await admin('POST', `/admin/v1/shops/${shop.id}/campaigns/import`, {
    campaigns: [{ name: 'AB', enabled: true, isDraft: false, startAt: null, endAt: null, rules: [rule('A'), rule('B')] }],
  });
  const campaignId = (imported.campaignIds as string[])[0] as string;
  const read = (await admin('GET', `/admin/v1/shops/${shop.id}/campaigns/${campaignId}`)).campaign as { rules: Array<{ id: string }> };
  const [a, b] = read.rules.map((r) => r.id) as [string, string];
  const started = (await admin('POST', `/admin/v1/shops/${shop.id}/campaigns/${campaignId}/experiments`, {
    primaryMetric: 'conversion_rate',
    variants: [{ name: 'A', ruleId: a, weight: 1 }, { name: 'B', ruleId: b, weight: 1 }],
  })).experiment as { id: string };
  // Started an hour ago: the rows below, stamped in the last minutes, all fall in its window.
  await ctx.db.execute(sql`UPDATE experiments SET started_at = now() - interval '1 hour' WHERE shop_id = ${shop.id} AND id = ${started.id}`);
  const t0 = process.hrtime.bigint();
  await ctx.db.execute(sql`
    INSERT INTO storefront_events (shop_id, type, campaign_id, rule_id, variant_id, visitor_id, received_at)
    SELECT ${shop.id}::text, 'gift_added', ${campaignId}::text, CASE WHEN i % 2 = 0 THEN ${a}::text ELSE ${b}::text END,
           'gid://shopify/ProductVariant/1', 'visitor-' || (i % ${VISITORS}::int), now() - (i || ' milliseconds')::interval
      FROM generate_series(1, ${EVENTS}::int) AS i`);
  await ctx.db.execute(sql`
    INSERT INTO orders (shop_id, id, completed_at, day, currency, total, gift_lines, payload)
    SELECT ${shop.id}::text, 'o' || i, now() - (i || ' milliseconds')::interval, current_date, 'USD', 5000 + (i % 7) * 1000, 1,
           jsonb_build_object('lines', jsonb_build_array(
             jsonb_build_object('quantity', 1, 'price', 5000),
             jsonb_build_object('quantity', 1, 'price', 0, 'attributes', jsonb_build_object(
               '_svc_campaign_id', ${campaignId}::text, '_svc_rule_id', CASE WHEN i % 3 = 0 THEN ${a}::text ELSE ${b}::text END))))
      FROM generate_series(1, ${ORDERS}::int) AS i`);
  print(`${label}: seeded ${EVENTS} events of ${VISITORS} visitors and ${ORDERS} orders in ${elapsed(t0).toFixed(0)} ms`);
  return { shopId: shop.id, campaignId, experimentId: started.id };
}

await seedShop('other');
const target = await seedShop('target');
const url = `/admin/v1/shops/${target.shopId}/campaigns/${target.campaignId}/experiments/${target.experimentId}/results`;
const times: number[] = [];
let last: Record<string, unknown> = {};
for (let i = -3; i < RUNS; i += 1) {
  const t0 = process.hrtime.bigint();
  last = await admin('GET', url);
  if (i >= 0) times.push(elapsed(t0));
}
const results = last.results as { variants: Array<{ visitors: number; orders: number; giftAdds: number }> };
print(`variants: ${JSON.stringify(results.variants.map(({ visitors, giftAdds, orders }) => ({ visitors, giftAdds, orders })))}`);
print(`GET results over ${RUNS} runs (${ctx.config.databaseUrl ? 'PostgreSQL' : 'PGlite'}): p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
await app.close();
// The context's background workers keep the loop alive; the figures are printed.
process.exit(0);
