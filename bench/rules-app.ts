/**
 * The app side of `npm run bench:rules`, a process of its own so that its CPU time
 * (/proc/<pid>/stat) is its own: opens the store the environment names (a fresh PGlite in a
 * temporary directory, or DATABASE_URL), seeds the 100-rule shop of the app-vs-bare case
 * through the admin API and BENCH_SHOPS_MAX small shops in bulk (seed-shops.ts), listens on a
 * loopback port and tells its parent over IPC. Answers `stats` messages with the rules
 * cache's counters and the heap, and `profile` messages by starting V8's CPU profiler or
 * stopping it and writing the profile to the file named (BENCH_CPU_PROFILE).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext, createLogger } from '../src/context.ts';
import { benchRule, smallShopRule } from './rules-fixtures.ts';
import { BENCH_ADMIN_TOKEN, seedBenchShop } from './seed-shop.ts';
import { seedShops } from './seed-shops.ts';

const send = (message: unknown) => process.send?.(message);

async function main() {
  const env = process.env;
  const dataDir = env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'gcrs-bench-rules-'));
  const config = loadConfig({
    ...env,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    LOG_LEVEL: env.LOG_LEVEL ?? 'silent',
    RATE_LIMIT_SCALE: env.RATE_LIMIT_SCALE ?? '1000000',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
  });
  const ctx = await createAppContext(config, { logger: createLogger(config) });
  const app = await buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const stop = async () => {
    await app.close();
    await ctx.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  const profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  process.on('message', (message: { type: string; file?: string }) => {
    if (message.type === 'stats') send({ type: 'stats', rules: ctx.rulesCache.stats(), keys: ctx.apiKeys.stats(), renewals: ctx.apiKeys.refresher?.stats(), memory: process.memoryUsage() });
    if (message.type === 'profile') void toggleProfile(profiler, message.file).then(() => send({ type: 'profiled' }));
    if (message.type === 'stop') void stop();
  });
  const seeded = process.hrtime.bigint();
  const { shopId, key } = await seedBenchShop(app, { name: 'rules', rules: 100, rulesPerCampaign: 10, rule: benchRule });
  // BENCH_KEYS − 1 more keys of that shop, each with its own rate-limit window.
  const keys = [key];
  for (let i = 1; i < Number(env.BENCH_KEYS ?? '1'); i += 1) {
    const res = await app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/api-keys`, payload: { name: `bench ${i}` }, headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
    if (res.statusCode !== 201) throw new Error(`key: ${res.body}`);
    keys.push((res.json() as { key: string }).key);
  }
  const shops = Number(env.BENCH_SHOPS_MAX ?? '0');
  // Shop 0 also gets as many keys as the most shops, for the one-shop side with as many keys.
  if (shops > 0) await seedShops(ctx.db, { count: shops, rules: Number(env.BENCH_SHOP_RULES ?? '10'), shopZeroKeys: shops - 1, rule: smallShopRule });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  send({
    type: 'ready',
    port: address.port,
    keys,
    store: `${ctx.database.kind}${config.redisUrl ? ' + Redis' : ''} (key cache ${ctx.shopVersions.mode})`,
    seedMs: Number(process.hrtime.bigint() - seeded) / 1e6,
  });
}

/** Starts the profiler, or with `file` stops it and writes the profile there (open it in Chrome's DevTools). */
async function toggleProfile(profiler: Session, file: string | undefined): Promise<void> {
  if (file === undefined) {
    await profiler.post('Profiler.start');
    return;
  }
  const { profile } = await profiler.post('Profiler.stop');
  await writeFile(file, JSON.stringify(profile));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench app failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
