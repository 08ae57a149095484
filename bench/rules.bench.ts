/**
 * `npm run bench:rules`: GET /api/v1/rules, every side in a process of its own — the app
 * (rules-app.ts), a bare Fastify serving the app's bytes and headers (rules-bare.ts), and the
 * autocannon load (rules-load.ts) — so that each server's CPU time per request, read from
 * /proc/<pid>/stat, is its own and the client's parsing is in neither. Prints requests/s and
 * CPU µs per request side by side, their ratios against each goal, and the load average.
 *
 * 1. App against bare Fastify, one shop of 100 rules (~90 KB of JSON), for 200 and for 304
 *    (the current ETag sent back), for each coding of BENCH_ACCEPT_ENCODING; alternating
 *    rounds. Goal: bare's CPU per request / the app's ≥ 0.8.
 * 2. Many shops: one key per shop of BENCH_SHOP_RULES rules, for each count N of BENCH_SHOPS
 *    three loads in rotation after a warm-up that asks every shop and key once (the steady
 *    state): the N shops' keys, N keys of shop 0, shop 0's one key. Goal: CPU per request of
 *    shop 0 over N keys (the same limiter calls as N shops) / N shops' ≥ 0.7; the one-key
 *    ratio, whose key is counted from leased limiter slots, is printed beside it.
 *
 * Stores, one after the other: a fresh embedded PGlite, then with DATABASE_URL PostgreSQL
 * (with REDIS_URL, Redis). The limiter runs, scaled by RATE_LIMIT_SCALE=1e6 so it refuses
 * nothing; LOG_LEVEL=silent. Knobs: BENCH_ROUND_SECONDS (3), BENCH_ROUNDS (2 per side),
 * BENCH_CONNECTIONS (10), BENCH_ACCEPT_ENCODING ("identity,br"), BENCH_SCALE_ENCODING ("br"),
 * BENCH_SHOPS ("1000,10000"; "" skips part 2), BENCH_SHOP_RULES (10), BENCH_STORES
 * ("pglite,postgres"), BENCH_KEYS (1: part 1 with N keys of its shop in turn, each with its
 * own rate-limit window), BENCH_CPU_PROFILE (a directory: a .cpuprofile of the app over each
 * case's last measured round).
 */
import { mkdir } from 'node:fs/promises';
import { get } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { z } from 'zod';
import { startChild } from './child.ts';
import type { BenchChild } from './child.ts';
import { MAIN_THREAD } from './proc-cpu.ts';
import type { LoadJob, LoadResult } from './rules-load.ts';
import { benchShopKey, benchShopZeroKey } from './seed-shops.ts';

const envSchema = z.object({
  BENCH_ROUND_SECONDS: z.coerce.number().positive().default(3),
  BENCH_ROUNDS: z.coerce.number().int().min(1).default(2),
  BENCH_CONNECTIONS: z.coerce.number().int().min(1).default(10),
  BENCH_ACCEPT_ENCODING: z.string().default('identity,br'),
  BENCH_SCALE_ENCODING: z.string().default('br'),
  BENCH_SHOPS: z.string().default('1000,10000'),
  BENCH_SHOP_RULES: z.coerce.number().int().min(1).max(1000).default(10),
  BENCH_STORES: z.string().default('pglite,postgres'),
  BENCH_KEYS: z.coerce.number().int().min(1).max(1000).default(1),
  BENCH_CPU_PROFILE: z.string().optional(),
});
type BenchEnv = z.infer<typeof envSchema>;

const print = (text = '') => process.stdout.write(`${text}\n`);
const here = (file: string) => new URL(file, import.meta.url).pathname;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The response as sent, bytes not decoded (fetch would undo Content-Encoding). */
function getRaw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Headers the app sends on 200 and 304 alike, copied to the bare server with their values. */
const SHARED_HEADERS = ['x-request-id', 'ratelimit-policy', 'ratelimit', 'etag', 'cache-control', 'vary'];

/** Throws unless both answer with the same status, body bytes and header names, each value of the same length. */
async function assertSameAnswer(appUrl: string, bareUrl: string, headers: Record<string, string>): Promise<void> {
  const [a, b] = [await getRaw(appUrl, headers), await getRaw(bareUrl, headers)];
  const shape = (h: IncomingHttpHeaders) =>
    Object.entries(h)
      .filter(([name]) => name !== 'date')
      .map(([name, value]) => `${name}:${String(value).length}`)
      .sort()
      .join(' ');
  if (a.status !== b.status || !a.body.equals(b.body) || shape(a.headers) !== shape(b.headers)) {
    throw new Error(`app and bare answer differently: ${a.status} [${shape(a.headers)}] vs ${b.status} [${shape(b.headers)}]`);
  }
}

/**
 * One measured round: the load child's counts and the server's CPU seconds over them, with
 * the kernel's part (`system`) and the part of threads other than the event loop's (`helpers`:
 * V8's garbage collection helpers, libuv's pool, PGlite's thread).
 */
type Round = { requests: number; seconds: number; cpu: number; system: number; helpers: number; loaderCpu: number };

/** CPU seconds of every thread but the event loop's. */
const helperSeconds = (threads: Map<string, number>): number =>
  [...threads].reduce((total, [name, seconds]) => (name === MAIN_THREAD ? total : total + seconds), 0);

async function measure(loader: BenchChild, server: BenchChild, job: LoadJob, expected: 200 | 304): Promise<Round> {
  const [before, loaderBefore, threadsBefore] = [server.cpuTimes(), loader.cpuSeconds(), server.threadCpu()];
  const { result } = await loader.ask<{ result: LoadResult }>({ type: 'run', job }, 'result');
  const [after, loaderCpu, threadsAfter] = [server.cpuTimes(), loader.cpuSeconds() - loaderBefore, server.threadCpu()];
  const wrong = expected === 200 ? result.non2xx : result.requests - result.notModified;
  if (result.errors > 0 || wrong > 0) throw new Error(`unexpected answers from ${job.url}: errors ${result.errors}, not ${expected}: ${wrong}`);
  const cpu = after.user + after.system - before.user - before.system;
  const helpers = helperSeconds(threadsAfter) - helperSeconds(threadsBefore);
  return { requests: result.requests, seconds: result.seconds, cpu, system: after.system - before.system, helpers, loaderCpu };
}

type Totals = { rate: number; cpuPerRequest: number; systemPerRequest: number; helpersPerRequest: number; loaderCpuPerRequest: number; rounds: Round[] };
const totals = (rounds: Round[]): Totals => {
  const sum = (pick: (r: Round) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const requests = sum((r) => r.requests);
  return {
    rate: requests / sum((r) => r.seconds),
    cpuPerRequest: sum((r) => r.cpu) / requests,
    systemPerRequest: sum((r) => r.system) / requests,
    helpersPerRequest: sum((r) => r.helpers) / requests,
    loaderCpuPerRequest: sum((r) => r.loaderCpu) / requests,
    rounds,
  };
};
/** Where a side's CPU per request went: the kernel's part and other threads' part, in µs. */
const split = (t: Totals) => `${fmt(t.systemPerRequest * 1e6)} kernel, ${fmt(t.helpersPerRequest * 1e6)} off the event loop's thread`;
const side = (label: string, t: Totals) => `${label} ${fmt(t.rate).padStart(6)} req/s ${fmt(t.cpuPerRequest * 1e6).padStart(5)} µs CPU/req`;
const verdict = (ratio: number, goal: number) => `${ratio.toFixed(2)} (goal ≥ ${goal}: ${ratio >= goal ? 'met' : 'NOT met'})`;

/** Runs `a` and `b` in alternating rounds (which goes first alternates too). */
async function alternate(e: BenchEnv, a: () => Promise<Round>, b: () => Promise<Round>): Promise<[Totals, Totals]> {
  const [ta, tb] = await rotate(e, [a, b]);
  return [ta as Totals, tb as Totals];
}

/** Runs each of `sides` once per round, the first of each round moving one along, so none always goes first. */
async function rotate(e: BenchEnv, sides: ReadonlyArray<() => Promise<Round>>): Promise<Totals[]> {
  const rounds: Round[][] = sides.map(() => []);
  for (let round = 0; round < e.BENCH_ROUNDS; round += 1) {
    for (let i = 0; i < sides.length; i += 1) {
      const which = (round + i) % sides.length;
      rounds[which]?.push(await (sides[which] as () => Promise<Round>)());
    }
  }
  return rounds.map(totals);
}

/** With BENCH_CPU_PROFILE, one more round of `run` (not counted) under the app's CPU profiler, written to `<dir>/<name>.cpuprofile`. */
async function profileRound(e: BenchEnv, app: BenchChild, name: string, run: () => Promise<Round>): Promise<void> {
  if (e.BENCH_CPU_PROFILE === undefined) return;
  await mkdir(e.BENCH_CPU_PROFILE, { recursive: true });
  await app.ask({ type: 'profile' }, 'profiled');
  await run();
  await app.ask({ type: 'profile', file: `${e.BENCH_CPU_PROFILE}/${name}.cpuprofile` }, 'profiled');
}

/** Part 1: the app against bare Fastify, one shop of 100 rules. */
async function appAgainstBare(e: BenchEnv, app: BenchChild, appUrl: string, keys: string[], loader: BenchChild) {
  const key = keys[0] ?? '';
  print(`  app against bare Fastify: one shop, 100 rules, ${keys.length === 1 ? 'one API key' : `${keys.length} API keys in turn`}, ` +
    `${e.BENCH_CONNECTIONS} connections, ${e.BENCH_ROUNDS} alternating rounds of ${e.BENCH_ROUND_SECONDS} s per side`);
  for (const coding of e.BENCH_ACCEPT_ENCODING.split(',').map((c) => c.trim())) {
    const auth = { authorization: `Bearer ${key}`, 'accept-encoding': coding };
    const first = await getRaw(appUrl, auth);
    const etag = first.headers.etag ?? '';
    if (first.status !== 200 || etag === '') throw new Error(`GET /rules answered ${first.status}`);
    const headers: Record<string, string> = {};
    for (const name of SHARED_HEADERS) headers[name] = String(first.headers[name]);
    const bodyHeaders: Record<string, string> = { 'content-type': String(first.headers['content-type']) };
    if (first.headers['content-encoding'] !== undefined) bodyHeaders['content-encoding'] = first.headers['content-encoding'];
    const { child: bare, ready } = await startChild<{ port: number }>(here('./rules-bare.ts'), process.env, {
      body: first.body.toString('base64'),
      etag,
      headers,
      bodyHeaders,
    });
    const bareUrl = `http://127.0.0.1:${ready.port}/api/v1/rules`;
    try {
      for (const [status, sent] of [[200, auth], [304, { ...auth, 'if-none-match': etag }]] as const) {
        await assertSameAnswer(appUrl, bareUrl, sent);
        const job = (url: string, seconds: number): LoadJob => ({ url, headers: { 'accept-encoding': sent['accept-encoding'], ...('if-none-match' in sent ? { 'if-none-match': sent['if-none-match'] } : {}) }, connections: e.BENCH_CONNECTIONS, seconds, keys });
        await measure(loader, app, job(appUrl, 1), status); // warm-up
        await measure(loader, bare, job(bareUrl, 1), status);
        const [a, b] = await alternate(
          e,
          () => measure(loader, app, job(appUrl, e.BENCH_ROUND_SECONDS), status),
          () => measure(loader, bare, job(bareUrl, e.BENCH_ROUND_SECONDS), status),
        );
        await profileRound(e, app, `rules-${status}-${coding}`, () => measure(loader, app, job(appUrl, e.BENCH_ROUND_SECONDS), status));
        print(`    ${coding.padEnd(8)} ${status} (${first.body.length} bytes): ${side('app', a)} | ${side('bare', b)} | ` +
          `CPU/req bare/app ${verdict(b.cpuPerRequest / a.cpuPerRequest, 0.8)}, req/s app/bare ${(a.rate / b.rate).toFixed(2)}  [load ${load()}]`);
        print(`             µs CPU/req: app ${split(a)} | bare ${split(b)}`);
      }
    } finally {
      await bare.stop();
    }
  }
}

/**
 * Part 2: one shop against many, each shop its own key, at steady state. Two one-shop sides:
 * one key on every lane, and as many keys of the shop as there are shops (each lane cycling
 * through its own share, as the many-shop load does). With the bench's RATE_LIMIT_SCALE one
 * key is busy enough for leases of limiter slots and is counted mostly without Redis, while
 * each of N shops' keys makes its own (batched) Redis call; the many-key side makes the same
 * calls as the many-shop side, so comparing with it leaves only what N shops cost beyond one.
 */
async function manyShops(e: BenchEnv, app: BenchChild, appUrl: string, loader: BenchChild, counts: number[]) {
  const coding = e.BENCH_SCALE_ENCODING;
  const probe = await getRaw(appUrl, { authorization: `Bearer ${benchShopKey(0)}`, 'accept-encoding': coding });
  if (probe.status !== 200) throw new Error(`small shop: GET /rules answered ${probe.status}`);
  print(`  many shops: 200, ${coding}, shops of ${e.BENCH_SHOP_RULES} rules (${probe.body.length} bytes ${probe.headers['content-encoding'] ?? 'identity'}), ` +
    `one key per shop, each of ${e.BENCH_CONNECTIONS} connections cycling through its own share of the keys; every shop and key asked once before measuring`);
  const job = (keys: string[], seconds: number, once = false): LoadJob => ({ url: appUrl, headers: { 'accept-encoding': coding }, connections: e.BENCH_CONNECTIONS, seconds, once, keys });
  // The same ten one-connection lanes as the many-shop load, every lane on shop 0's first key.
  const one = Array.from({ length: e.BENCH_CONNECTIONS }, () => benchShopKey(0));
  for (const count of counts) {
    const keys = Array.from({ length: count }, (_, i) => benchShopKey(i));
    const shopZeroKeys = Array.from({ length: count }, (_, j) => (j === 0 ? benchShopKey(0) : benchShopZeroKey(j)));
    const warm = await measure(loader, app, job(keys, 0, true), 200);
    await measure(loader, app, job(shopZeroKeys, 0, true), 200);
    await measure(loader, app, job(keys, 1), 200);
    const [single, singleManyKeys, many] = (await rotate(e, [
      () => measure(loader, app, job(one, e.BENCH_ROUND_SECONDS), 200),
      () => measure(loader, app, job(shopZeroKeys, e.BENCH_ROUND_SECONDS), 200),
      () => measure(loader, app, job(keys, e.BENCH_ROUND_SECONDS), 200),
    ])) as [Totals, Totals, Totals];
    await profileRound(e, app, `rules-${count}-shops`, () => measure(loader, app, job(keys, e.BENCH_ROUND_SECONDS), 200));
    await profileRound(e, app, `rules-1-shop-${count}-keys`, () => measure(loader, app, job(shopZeroKeys, e.BENCH_ROUND_SECONDS), 200));
    const { rules, keys: keyReads, renewals, memory } = await app.ask<{
      rules: { entries: number; bytes: number; maxBytes: number; compressions: { br: number; gzip: number } };
      keys?: { reads: number; hits: number };
      renewals?: { reads: number; renewals: number; adoptions: number; refused: number };
      memory: NodeJS.MemoryUsage;
    }>({ type: 'stats' }, 'stats');
    const n = fmt(count);
    print(`    ${n.padStart(6)} shops: ${side(`${n} shops`, many)} | ${side(`1 shop, ${n} keys`, singleManyKeys)} | ${side('1 shop, 1 key', single)}  [load ${load()}]`);
    print(`           CPU/req 1 shop ÷ ${n} shops, both ${n} keys (same limiter calls) ${verdict(singleManyKeys.cpuPerRequest / many.cpuPerRequest, 0.7)}, req/s ${(many.rate / singleManyKeys.rate).toFixed(2)}; ` +
      `1 shop of 1 key (leased limiter slots) ÷ ${n} shops ${(single.cpuPerRequest / many.cpuPerRequest).toFixed(2)}, req/s ${(many.rate / single.rate).toFixed(2)}`);
    print(`           app µs CPU/req: ${split(many)} (${n} shops) / ${split(singleManyKeys)} (1 shop, ${n} keys) / ${split(single)} (1 key)`);
    // Each round's own figure: on a shared machine one round can be several times another.
    const byRound = (t: Totals) => t.rounds.map((r) => fmt((r.cpu * 1e6) / r.requests)).join(', ');
    print(`           µs CPU/req round by round: ${byRound(many)} (${n} shops) / ${byRound(singleManyKeys)} (1 shop, ${n} keys) / ${byRound(single)} (1 key)`);
    print(`           load generator ${fmt(many.loaderCpuPerRequest * 1e6)} / ${fmt(singleManyKeys.loaderCpuPerRequest * 1e6)} / ${fmt(single.loaderCpuPerRequest * 1e6)} µs CPU/req; warm-up ${fmt(warm.requests)} requests, ${fmt((warm.cpu * 1e6) / warm.requests)} µs CPU/req; cache ${fmt(rules.entries)} entries, ` +
      `${fmt(rules.bytes / 2 ** 20, 1)} of ${fmt(rules.maxBytes / 2 ** 20)} MiB counted, ${fmt(rules.compressions.br)} br compressions so far; ` +
      `heap ${fmt(memory.heapUsed / 2 ** 20)} MiB, RSS ${fmt(memory.rss / 2 ** 20)} MiB`);
    // So far in this store's run: keys read on a request's path against those from memory, and
    // the tokens renewed ahead of expiry (src/api-keys/key-refresh.ts) with the keys they read.
    if (keyReads !== undefined) {
      print(`           keys so far: ${fmt(keyReads.reads)} read on a request's path, ${fmt(keyReads.hits)} from memory` +
        (renewals === undefined ? '' : `; ${fmt(renewals.renewals)} tokens renewed ahead of expiry (${fmt(renewals.reads)} keys read for them), ${fmt(renewals.refused)} refused`));
    }
  }
}

async function benchStore(e: BenchEnv, env: NodeJS.ProcessEnv, counts: number[]) {
  const { child: app, ready } = await startChild<{ port: number; keys: string[]; store: string; seedMs: number }>(here('./rules-app.ts'), {
    ...env,
    BENCH_KEYS: String(e.BENCH_KEYS),
    BENCH_SHOPS_MAX: String(Math.max(0, ...counts)),
    BENCH_SHOP_RULES: String(e.BENCH_SHOP_RULES),
  });
  const { child: loader } = await startChild(here('./rules-load.ts'), env);
  try {
    // The app's own background (outbox polls, periodic workers, the database's thread) is in
    // its CPU time too: shown, so that a low request rate's share of it can be told apart.
    const idleFrom = app.cpuSeconds();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = (app.cpuSeconds() - idleFrom) / 2;
    print(`${ready.store}: seeded in ${fmt(ready.seedMs / 1000, 1)} s; idle app ${fmt(idle * 1000)} ms CPU/s  [load ${load()}]`);
    const appUrl = `http://127.0.0.1:${ready.port}/api/v1/rules`;
    await appAgainstBare(e, app, appUrl, ready.keys, loader);
    if (counts.length > 0) await manyShops(e, app, appUrl, loader, counts);
  } finally {
    await loader.stop();
    await app.stop();
  }
}

async function main() {
  const e = envSchema.parse(process.env);
  const counts = e.BENCH_SHOPS.split(',').map((c) => c.trim()).filter((c) => c !== '').map(Number);
  const stores = e.BENCH_STORES.split(',').map((s) => s.trim());
  print(`GET /rules: ${availableParallelism()} CPUs, load average ${load()} (1, 5, 15 min); each server and the load generator in its own process, CPU from /proc`);
  if (stores.includes('pglite')) await benchStore(e, { ...process.env, DATABASE_URL: '', REDIS_URL: '' }, counts);
  if (!stores.includes('postgres')) return;
  if (process.env.DATABASE_URL) await benchStore(e, process.env, counts);
  else print('(set DATABASE_URL, and REDIS_URL, to measure PostgreSQL too)');
}

await main();
