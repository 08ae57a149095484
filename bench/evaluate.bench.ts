/**
 * `npm run bench:evaluate`: CPU per request of POST /api/v1/evaluate against CPU per cart of the
 * engine's `planCart` in-process, on the same compiled live payload and the same carts, in
 * alternating rounds of one run (issue 20 item 5). The app listens on loopback in this process
 * and autocannon drives it from a process of its own (load-child.ts), so this process's
 * /proc/<pid>/stat utime+stime over a service round is the server's CPU alone; over an engine
 * round it is the engine's. The ratio engine / service is what the service adds around the
 * engine (goal for `?trace=false`: ≥ 0.3).
 *
 * Logging: the same app is built once per LOG_LEVEL of BENCH_LOG_LEVELS (default silent, warn
 * and info, the default level; one database), each writing its log to /dev/null, and every round
 * measures each of them: the difference to silent is the per-request cost of logging.
 *
 * Database: DATABASE_URL (and REDIS_URL for the limiter and the invalidation bus) when set,
 * else a fresh embedded PGlite in a temporary directory. The limiter runs with its limits
 * scaled up by RATE_LIMIT_SCALE (default here 1e6) so it does not refuse the load.
 *
 * BENCH_ROUND_SECONDS (default 3), BENCH_ROUNDS (default 3 per side and case),
 * BENCH_CONNECTIONS (default 10), BENCH_CASES (';'-separated prefixes of the case names, e.g.
 * `large cart, no`), BENCH_LOG_LEVELS (comma-separated, the first is the ratio's; default
 * `silent,warn,info`), BENCH_CPU_PROFILE (a directory: a .cpuprofile of each side's last round).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { compileRules, evaluationContextSchema, planCart } from '@gcrs/engine';
import type { CompiledRules, EvaluationContextInput, RulesPayloadInput } from '@gcrs/engine';
import { ruleGenerator } from '../packages/engine/bench/random-rules.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Config } from '../src/config.ts';
import { createAppContext, createLogger } from '../src/context.ts';
import type { AppContext } from '../src/context.ts';
import { engineRound, micros, profiled, serviceRound, startBare, startRaw } from './evaluate-sides.ts';
import type { Case, Server, Tally } from './evaluate-sides.ts';

/** The app at one log level: its context (the first one's owns the database) and Fastify instance. */
type AppServer = Server & { ctx: AppContext; app: FastifyInstance };
import { startLoadChild } from './load-child.ts';
import { BENCH_ADMIN_TOKEN, seedBenchShop } from './seed-shop.ts';

const RULES = 100;
const RULES_PER_CAMPAIGN = 10;
const PRODUCTS = 500;
const COLLECTIONS = 20;
const TAGS = ['vip', 'wholesale', 'new', 'returning', 'staff', 'press'];
/** Issue 20 item 5: engine CPU per cart / service CPU per request, with `?trace=false`. */
const RATIO_GOAL = 0.3;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const envSchema = z.object({
  BENCH_ROUND_SECONDS: z.coerce.number().positive().default(3),
  BENCH_ROUNDS: z.coerce.number().int().min(1).default(3),
  BENCH_CONNECTIONS: z.coerce.number().int().min(1).default(10),
  BENCH_CASES: z.string().optional(),
  BENCH_CPU_PROFILE: z.string().optional(),
  BENCH_LOG_LEVELS: z
    .string()
    .default('silent,warn,info')
    .transform((text) => text.split(',').map((level) => level.trim()))
    .pipe(z.array(z.enum(LEVELS)).min(1)),
});

const print = (text = '') => process.stdout.write(`${text}\n`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

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

/**
 * A storefront's cart as it would POST it: `lines` lines, the platform's attribute list on some,
 * and the collections map GET /rules gave it (CONTRACT "Storefront"), unless `withCollections`
 * is false (a shop whose rules name no collection).
 */
function cartBody(lines: number, withCollections = true): EvaluationContextInput {
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
    ...(withCollections ? { collections } : {}),
    visitorId: 'visitor-1',
  };
}

/** The app at `level`, on `ctx`'s database when given, listening on a loopback port. */
async function startServer(config: Config, level: (typeof LEVELS)[number], shared?: AppContext): Promise<AppServer> {
  const levelConfig = { ...config, logLevel: level };
  const destination = pino.destination({ dest: '/dev/null', sync: true });
  const logger = createLogger(levelConfig, destination);
  const ctx = await createAppContext(levelConfig, { logger, ...(shared ? { database: shared.database } : {}) });
  const app = await buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    level,
    base: `http://127.0.0.1:${address.port}/api/v1`,
    ctx,
    app,
    async close() {
      await app.close();
      await ctx.close();
      destination.destroy();
    },
  };
}


/** Throws unless the server's answer to `c` is a 200 that agrees with the engine's, rule by rule. */
async function checkAgreement(server: Server, c: Case, auth: string, rules: CompiledRules): Promise<string> {
  const probe = await fetch(`${server.base}${c.path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: c.body });
  const answer = await probe.text();
  if (probe.status !== 200) throw new Error(`${c.name}: ${probe.status} ${answer.slice(0, 200)}`);
  const engineAnswer = planCart(rules, c.context, { now: new Date(), trace: c.trace });
  const served = JSON.parse(answer) as { results: Array<{ matched: boolean }> };
  const same = served.results.every((r, i) => r.matched === engineAnswer.results[i]?.matched);
  if (!same || served.results.length !== engineAnswer.results.length) throw new Error(`${c.name}: service and engine disagree`);
  return answer;
}

async function main() {
  const e = envSchema.parse(process.env);
  const dataDir = process.env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'gcrs-bench-evaluate-'));
  const config = loadConfig({
    ...process.env,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '1000000',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
  });
  const servers: AppServer[] = [];
  const loader = await startLoadChild();
  const bare = await startBare();
  const raw = await startRaw();
  try {
    for (const level of e.BENCH_LOG_LEVELS) servers.push(await startServer(config, level, servers[0]?.ctx));
    const first = servers[0];
    if (first === undefined) throw new Error('no server');
    const { key } = await seedBenchShop(first.app, { name: 'evaluate', rules: RULES, rulesPerCampaign: RULES_PER_CAMPAIGN, rule: benchRule });
    const auth = `Bearer ${key}`;
    // The engine side compiles exactly the payload the service serves.
    const served = await fetch(`${first.base}/rules`, { headers: { authorization: auth } });
    const payload = (await served.json()) as RulesPayloadInput & { currency?: string };
    const rules = compileRules({ ...payload, baseCurrency: payload.baseCurrency ?? payload.currency ?? 'USD' });

    const cases: Case[] = [];
    for (const [size, lines] of [['small', 3], ['large', 200]] as const) {
      const body = cartBody(lines);
      const text = JSON.stringify(body);
      const context = evaluationContextSchema.parse(body);
      cases.push({ name: `${size} cart, full trace`, path: '/evaluate', body: text, context, trace: true });
      cases.push({ name: `${size} cart, no trace`, path: '/evaluate?trace=false', body: text, context, trace: false });
    }
    // The same small cart without the map: the floor of a body that is mostly the cart.
    const mapless = cartBody(3, false);
    const maplessText = JSON.stringify(mapless);
    cases.push({ name: 'small cart without collections, no trace', path: '/evaluate?trace=false', body: maplessText, context: evaluationContextSchema.parse(mapless), trace: false });
    const wanted = e.BENCH_CASES?.split(';').map((name) => name.trim());
    const selected = wanted ? cases.filter((c) => wanted.some((w) => c.name.startsWith(w))) : cases;

    print(`POST /api/v1/evaluate: ${first.ctx.database.kind}${config.redisUrl ? ' + Redis' : ''}, ${RULES} rules, ` +
      `${e.BENCH_CONNECTIONS} connections from a load process of its own, ${e.BENCH_ROUNDS} alternating rounds of ` +
      `${e.BENCH_ROUND_SECONDS} s per side; LOG_LEVEL ${e.BENCH_LOG_LEVELS.join(', ')} (log to /dev/null); node ${process.version}`);
    print('CPU = utime+stime of /proc/<pid>/stat over each round: the server process per request, the engine per cart');
    print(`load average before: ${load()}`);
    for (const c of selected) {
      let answer = '';
      for (const server of servers) answer = await checkAgreement(server, c, auth, rules);
      const traced = (JSON.parse(answer) as { results: Array<{ trace?: unknown }> }).results.some((r) => r.trace !== undefined && r.trace !== null);

      for (const server of servers) await serviceRound(loader, server, c, auth, 1, e.BENCH_CONNECTIONS); // warm-up
      engineRound(c, rules, 1, true);
      engineRound(c, rules, 1, false);
      bare.answer.text = answer;
      raw.answer.text = answer;
      await serviceRound(loader, bare.server, c, auth, 1, e.BENCH_CONNECTIONS);
      await serviceRound(loader, raw.server, c, auth, 1, e.BENCH_CONNECTIONS);
      const sides = ['engine', 'engine fresh', 'raw', 'bare', ...servers.map((s) => s.level)];
      const tallies = new Map<string, Tally>(sides.map((side) => [side, { cpu: 0, system: 0, work: 0, perSecond: 0 }]));
      for (let round = 0; round < e.BENCH_ROUNDS; round += 1) {
        // Rotate which side goes first, so none always runs on a warmer (or busier) machine.
        const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
        for (const side of order) {
          const server = side === 'bare' ? bare.server : side === 'raw' ? raw.server : servers.find((s) => s.level === side);
          const run = () => (server
            ? serviceRound(loader, server, c, auth, e.BENCH_ROUND_SECONDS, e.BENCH_CONNECTIONS)
            : Promise.resolve(engineRound(c, rules, e.BENCH_ROUND_SECONDS, side === 'engine')));
          // The profile of each side's last round, when asked for (the profiler's own cost is then in the figures).
          const profileDir = round === e.BENCH_ROUNDS - 1 ? e.BENCH_CPU_PROFILE : undefined;
          const tally = profileDir === undefined
            ? await run()
            : await mkdir(profileDir, { recursive: true }).then(() => profiled(join(profileDir, `${c.name.replace(/\W+/g, '-')}.${side}.cpuprofile`), run));
          const sum = tallies.get(side) as Tally;
          sum.cpu += tally.cpu;
          sum.system += tally.system;
          sum.work += tally.work;
          sum.perSecond += tally.perSecond / e.BENCH_ROUNDS;
        }
      }
      const engine = tallies.get('engine') as Tally;
      const fresh = tallies.get('engine fresh') as Tally;
      const floor = tallies.get('bare') as Tally;
      const rawFloor = tallies.get('raw') as Tally;
      const kernel = (t: Tally) => `(${((t.system / t.work) * 1e6).toFixed(0).padStart(3)} in the kernel)`;
      const column = (label: string, t: Tally) => `  ${label.padEnd(24)}${micros(t).toFixed(1).padStart(8)} µs CPU`;
      print(`\n${c.name}: request ${c.body.length} B, response ${Buffer.byteLength(answer)} B${traced ? ', traced' : ''}`);
      print(`${column('engine, context reused', engine)} per cart   ${engine.perSecond.toFixed(0).padStart(6)} carts/s   the same parsed context every time (a storefront's own cart)`);
      print(`${column('engine, fresh context', fresh)} per cart                   a new parse of the body for every cart, as each request brings (parse + plan − parse)`);
      print(`${column('raw node:http', rawFloor)} per request ${kernel(rawFloor)} ${rawFloor.perSecond.toFixed(0).padStart(6)} req/s   ` +
        `JSON.parse this body, JSON.stringify this answer, write it; engine / raw ${(micros(engine) / micros(rawFloor)).toFixed(3)} (fresh ${(micros(fresh) / micros(rawFloor)).toFixed(3)})`);
      print(`${column('bare Fastify', floor)} per request ${kernel(floor)} ${floor.perSecond.toFixed(0).padStart(6)} req/s   ` +
        `the floor: parse this body, write these bytes; engine / floor ${(micros(engine) / micros(floor)).toFixed(3)} (fresh ${(micros(fresh) / micros(floor)).toFixed(3)})`);
      const reference = tallies.get(first.level) as Tally;
      for (const server of servers) {
        const tally = tallies.get(server.level) as Tally;
        const ratio = micros(engine) / micros(tally);
        const goal = c.trace ? '' : `   goal ≥ ${RATIO_GOAL}: ${ratio >= RATIO_GOAL ? 'met' : 'NOT met'}`;
        const extra = micros(tally) - micros(reference);
        const logging = server === first ? '' : `   logging ${extra >= 0 ? '+' : ''}${extra.toFixed(1)} µs/request (${((100 * extra) / micros(reference)).toFixed(0)}%) vs ${first.level}`;
        print(`${column(`service LOG_LEVEL=${server.level}`, tally)} per request ${kernel(tally)} ${tally.perSecond.toFixed(0).padStart(6)} req/s   ` +
          `ratio ${ratio.toFixed(3)} (fresh ${(micros(fresh) / micros(tally)).toFixed(3)})${goal}   ` +
          `service / bare ${(micros(tally) / micros(floor)).toFixed(2)}, / raw ${(micros(tally) / micros(rawFloor)).toFixed(2)}${logging}`);
      }
    }
    print(`\nload average after: ${load()}`);
  } finally {
    loader.stop();
    await bare.server.close();
    await raw.server.close();
    // The first server's context owns the database: close it last.
    for (const server of [...servers].reverse()) await server.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
