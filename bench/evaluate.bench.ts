/**
 * `npm run bench:evaluate`: POST /api/v1/evaluate of the real app (listening on loopback,
 * driven by autocannon) beside the engine in-process (`planCart` on the same compiled live
 * payload and the same parsed cart), in alternating rounds of one run, for a small and a large
 * cart, with the full trace (SPEC's default) and with `?trace=false`. Prints requests/s of the
 * service, carts/s of the engine, and the ratio service / engine.
 *
 * Database: DATABASE_URL (and REDIS_URL for the limiter and the invalidation bus) when set,
 * else a fresh embedded PGlite in a temporary directory. The limiter runs with its limits
 * scaled up by RATE_LIMIT_SCALE (default here 1e6) so it does not refuse the load.
 *
 * BENCH_ROUND_SECONDS (default 3), BENCH_ROUNDS (default 3 per side and case),
 * BENCH_CONNECTIONS (default 10), BENCH_CASES (';'-separated prefixes of the case names, e.g. `large cart, no`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { z } from 'zod';
import { compileRules, evaluationContextSchema, planCart } from '@gcrs/engine';
import type { CompiledRules, EvaluationContext, EvaluationContextInput, RulesPayloadInput } from '@gcrs/engine';
import { ruleGenerator } from '../packages/engine/bench/random-rules.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext, createLogger } from '../src/context.ts';
import { BENCH_ADMIN_TOKEN, seedBenchShop } from './seed-shop.ts';

const RULES = 100;
const RULES_PER_CAMPAIGN = 10;
const PRODUCTS = 500;
const COLLECTIONS = 20;
const TAGS = ['vip', 'wholesale', 'new', 'returning', 'staff', 'press'];

const envSchema = z.object({
  BENCH_ROUND_SECONDS: z.coerce.number().positive().default(3),
  BENCH_ROUNDS: z.coerce.number().int().min(1).default(3),
  BENCH_CONNECTIONS: z.coerce.number().int().min(1).default(10),
  BENCH_CASES: z.string().optional(),
});

const print = (text = '') => process.stdout.write(`${text}\n`);

// The engine bench's rule generator, with this bench's own seed.
const { int, pick, productGid, randomTree } = ruleGenerator(20251123, { products: PRODUCTS, collections: COLLECTIONS, tags: TAGS });

const benchRule = (c: number, r: number) => ({
  name: `Bench rule ${c}-${r}`,
  enabled: true,
  conditionTree: randomTree(4),
  giftConfig: { type: 'fixed', gifts: [{ variantId: `gid://shopify/ProductVariant/${900_000 + c * 100 + r}`, quantity: 1 }], fallbackOnOOS: false },
  options: { actionType: r % 5 === 0 ? 'customer_choice' : 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100 },
});

const collections: Record<string, string[]> = {};
for (let c = 0; c < COLLECTIONS; c++) collections[`collection-${c}`] = Array.from({ length: 50 }, () => productGid(int(1, PRODUCTS)));

/** A storefront's cart as it would POST it: `lines` lines, the platform's attribute list on some. */
function cartBody(lines: number): EvaluationContextInput {
  return {
    cart: {
      currency: 'USD',
      lines: Array.from({ length: lines }, (_, i) => {
        const product = int(1, PRODUCTS);
        return {
          id: `gid://shopify/CartLine/${i}`,
          productId: productGid(product),
          variantId: `gid://shopify/ProductVariant/${product * 10 + int(0, 3)}`,
          quantity: int(1, 3),
          price: int(100, 5_000),
          ...(i % 4 === 0 ? { attributes: [{ key: 'gift_wrap', value: 'yes' }] } : {}),
        };
      }),
      discountCodes: ['WELCOME'],
    },
    customer: { loggedIn: true, tags: [pick(TAGS)] },
    market: { handle: 'us', country: 'US' },
    collections,
    visitorId: 'visitor-1',
  };
}

type Case = { name: string; url: string; body: string; context: EvaluationContext; trace: boolean };

async function driveService(c: Case, auth: string, seconds: number, connections: number): Promise<number> {
  const result = await autocannon({
    url: c.url,
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: c.body,
    duration: seconds,
    connections,
    pipelining: 1,
  });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${c.name}: errors ${result.errors}, non-2xx ${result.non2xx}`);
  return result.requests.average;
}

/** The engine in-process for `seconds`: carts per second of planCart on the parsed context. */
function driveEngine(c: Case, rules: CompiledRules, seconds: number): number {
  const end = performance.now() + seconds * 1000;
  let runs = 0;
  let now = performance.now();
  while (now < end) {
    for (let i = 0; i < 10; i++) planCart(rules, c.context, { now: new Date(), trace: c.trace });
    runs += 10;
    now = performance.now();
  }
  return runs / (seconds + (now - end) / 1000);
}

async function main() {
  const e = envSchema.parse(process.env);
  const dataDir = process.env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'gcrs-bench-evaluate-'));
  const config = loadConfig({
    ...process.env,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '1000000',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
  });
  const ctx = await createAppContext(config, { logger: createLogger(config) });
  const app = await buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { key } = await seedBenchShop(app, { name: 'evaluate', rules: RULES, rulesPerCampaign: RULES_PER_CAMPAIGN, rule: benchRule });
    const auth = `Bearer ${key}`;
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}/api/v1`;
    // The engine side compiles exactly the payload the service serves.
    const served = await fetch(`${base}/rules`, { headers: { authorization: auth } });
    const payload = (await served.json()) as RulesPayloadInput & { currency?: string };
    const rules = compileRules({ ...payload, baseCurrency: payload.baseCurrency ?? payload.currency ?? 'USD' });

    const cases: Case[] = [];
    for (const [size, lines] of [['small', 3], ['large', 200]] as const) {
      const body = cartBody(lines);
      const text = JSON.stringify(body);
      const context = evaluationContextSchema.parse(body);
      cases.push({ name: `${size} cart, full trace`, url: `${base}/evaluate`, body: text, context, trace: true });
      cases.push({ name: `${size} cart, no trace`, url: `${base}/evaluate?trace=false`, body: text, context, trace: false });
    }
    const wanted = e.BENCH_CASES?.split(';').map((name) => name.trim());
    const selected = wanted ? cases.filter((c) => wanted.some((w) => c.name.startsWith(w))) : cases;

    print(`POST /api/v1/evaluate: ${ctx.database.kind}${config.redisUrl ? ' + Redis' : ''}, ${RULES} rules, ` +
      `${e.BENCH_CONNECTIONS} connections, ${e.BENCH_ROUNDS} alternating rounds of ${e.BENCH_ROUND_SECONDS} s per side; node ${process.version}`);
    print(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const c of selected) {
      const probe = await fetch(c.url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: c.body });
      const answer = await probe.text();
      if (probe.status !== 200) throw new Error(`${c.name}: ${probe.status} ${answer.slice(0, 200)}`);
      const engineAnswer = planCart(rules, c.context, { now: new Date(), trace: c.trace });
      const served = JSON.parse(answer) as { results: Array<{ matched: boolean; trace?: unknown }> };
      const same = served.results.every((r, i) => r.matched === engineAnswer.results[i]?.matched);
      if (!same || served.results.length !== engineAnswer.results.length) throw new Error(`${c.name}: service and engine disagree`);
      const traced = served.results.some((r) => r.trace !== undefined && r.trace !== null);

      await driveService(c, auth, 1, e.BENCH_CONNECTIONS); // warm-up
      driveEngine(c, rules, 1);
      const sums = { service: 0, engine: 0 };
      for (let round = 0; round < e.BENCH_ROUNDS; round += 1) {
        // Alternate which side goes first, so neither always runs on a warmer machine.
        const order = round % 2 === 0 ? (['service', 'engine'] as const) : (['engine', 'service'] as const);
        for (const side of order) {
          sums[side] += side === 'service'
            ? await driveService(c, auth, e.BENCH_ROUND_SECONDS, e.BENCH_CONNECTIONS)
            : driveEngine(c, rules, e.BENCH_ROUND_SECONDS);
        }
      }
      const service = sums.service / e.BENCH_ROUNDS;
      const engine = sums.engine / e.BENCH_ROUNDS;
      print(`${c.name.padEnd(24)} service ${service.toFixed(0).padStart(6)} req/s   engine ${engine.toFixed(0).padStart(7)} carts/s   ` +
        `ratio ${(service / engine).toFixed(3)}   request ${c.body.length} B, response ${Buffer.byteLength(answer)} B${traced ? ', traced' : ''}`);
    }
    print(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await app.close();
    await ctx.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
