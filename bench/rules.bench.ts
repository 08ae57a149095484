/**
 * `npm run bench:rules`: GET /api/v1/rules of the real app beside a bare Fastify serving the
 * identical bytes and headers (same ETag, same 304 logic; checked before each measurement), both on loopback ports in this process, driven
 * by the same autocannon load in alternating rounds, for 200 (no If-None-Match) and 304
 * (the current ETag sent back). Prints requests/s of both sides, the ratio app / bare
 * of the means, and the median of the rounds' own ratios (each round runs both sides back to back).
 *
 * Stores, in one run: a fresh embedded PGlite in a temporary directory, then, when
 * DATABASE_URL is set, PostgreSQL (with REDIS_URL for the limiter, the shop versions and the
 * invalidation bus when that is set too). The limiter still runs; its limits are scaled up
 * by RATE_LIMIT_SCALE (default here 1e6) so it does not refuse the load.
 *
 * BENCH_ROUND_SECONDS (default 3), BENCH_ROUNDS (default 3 per side and status),
 * BENCH_CONNECTIONS (default 10), BENCH_KEYS (default 1: one API key, a single hot key; N: N keys
 * of the shop in turn, each with its own rate-limit window, the multi-tenant load in which a key
 * sends far less than one request per Redis round trip), BENCH_ACCEPT_ENCODING (comma-separated codings to ask for,
 * each measured; default "identity,br"), BENCH_STORES (default "pglite,postgres").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext, createLogger } from '../src/context.ts';
import { ifNoneMatchHits } from '../src/http/etag.ts';
import { BENCH_ADMIN_TOKEN, seedBenchShop } from './seed-shop.ts';

const RULES = 100;
const RULES_PER_CAMPAIGN = 10;

const envSchema = z.object({
  BENCH_ROUND_SECONDS: z.coerce.number().positive().default(3),
  BENCH_ROUNDS: z.coerce.number().int().min(1).default(3),
  BENCH_CONNECTIONS: z.coerce.number().int().min(1).default(10),
  BENCH_ACCEPT_ENCODING: z.string().default('identity,br'),
  BENCH_STORES: z.string().default('pglite,postgres'),
  BENCH_KEYS: z.coerce.number().int().min(1).max(1000).default(1),
});

const print = (text = '') => process.stdout.write(`${text}\n`);

/** A rule of about 1 KB of payload, so 100 of them make the issue's ~97 KB body. */
const benchRule = (c: number, r: number) => ({
  name: `Bench rule ${c}-${r}: spend more, get a gift ${'x'.repeat(120)}`,
  enabled: true,
  conditionTree: {
    type: 'AND',
    children: [
      { type: 'cart.subtotal_gte', value: 5000 + r },
      { type: 'NOT', child: { type: 'discount.code_present' } },
      { type: 'cart.subtotal_gte', value: 1000 + c },
    ],
  },
  giftConfig: {
    type: 'fixed',
    gifts: [
      { variantId: `gid://shopify/ProductVariant/${c * 100 + r}`, quantity: 1 },
      { variantId: `gid://shopify/ProductVariant/${c * 100 + r + 50}`, quantity: 2 },
    ],
    fallbackOnOOS: false,
  },
  options: {
    actionType: 'auto_add',
    discountMethod: 'automatic',
    discountType: 'percentage',
    discountValue: 100,
    discountTitle: `Free mug for bench rule ${c}-${r}`,
  },
});

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

/**
 * Headers the app sends on 200 and 304 alike. The bare server sends the same names with values
 * of the same length (the request id and the rate-limit fields as the app's first answer had
 * them: the bytes on the wire, not the work of making them), so both sides write, and the
 * client parses, the same header block.
 */
const SHARED_HEADERS = ['x-request-id', 'ratelimit-policy', 'ratelimit', 'etag', 'cache-control', 'vary'];

/** The control: Fastify with no database, no auth and no limiter, serving the app's bytes and headers. */
async function startBare(body: Buffer, headers: IncomingHttpHeaders): Promise<FastifyInstance> {
  const etag = String(headers.etag);
  const copied: Record<string, string> = {};
  for (const name of SHARED_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string') throw new Error(`the app's answer has no ${name} header`);
    copied[name] = value;
  }
  // Only a 200 has a body, so only a 200 says what it is (the app's 304 has no Content-Type).
  const bodyHeaders: Record<string, string> = { 'content-type': String(headers['content-type']) };
  const encoding = headers['content-encoding'];
  if (encoding !== undefined) bodyHeaders['content-encoding'] = encoding;
  const bare = Fastify({ logger: false });
  bare.get('/api/v1/rules', (request, reply) => {
    reply.headers(copied);
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.headers(bodyHeaders).send(body);
  });
  await bare.listen({ host: '127.0.0.1', port: 0 });
  return bare;
}

/**
 * Throws unless the app and the bare server answer `headers` with the same status, body bytes
 * and header names, each value of the same length (request ids and rate-limit counts differ).
 */
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

const urlOf = (server: FastifyInstance): string => {
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}/api/v1/rules`;
};

/**
 * Drives `url` for `seconds`. With several `keys`, each connection cycles through them request
 * by request (one shop's keys, each with its own rate-limit window): the multi-tenant load.
 * Each connection starts from its own key, as independent clients would: in one autocannon
 * run every connection starts from the first, and they go through the keys in lockstep, all
 * ten on the same key at the same moment.
 */
async function drive(url: string, headers: Record<string, string>, seconds: number, connections: number, expected: number, keys: readonly string[] = []) {
  const requests = keys.map((key) => ({ method: 'GET' as const, headers: { ...headers, authorization: `Bearer ${key}` } }));
  const runs =
    keys.length > 1
      ? Array.from({ length: connections }, (_, i) => {
          const from = Math.floor((i * keys.length) / connections);
          return autocannon({ url, headers, duration: seconds, connections: 1, pipelining: 1, requests: [...requests.slice(from), ...requests.slice(0, from)] });
        })
      : [autocannon({ url, headers, duration: seconds, connections, pipelining: 1 })];
  const results = await Promise.all(runs);
  const sum = (pick: (result: autocannon.Result) => number) => results.reduce((total, result) => total + pick(result), 0);
  const [errors, non2xx, redirects] = [sum((r) => r.errors), sum((r) => r.non2xx), sum((r) => r['3xx'])];
  if (errors > 0 || (expected === 200 && non2xx > 0) || (expected === 304 && redirects === 0)) {
    throw new Error(`unexpected answers from ${url}: errors ${errors}, non-2xx ${non2xx}`);
  }
  return sum((r) => r.requests.average);
}

type BenchEnv = z.infer<typeof envSchema>;

/** `count` more API keys of the shop (BENCH_KEYS − 1). */
async function moreKeys(app: FastifyInstance, shopId: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/api-keys`, payload: { name: `bench ${i}` }, headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
    if (res.statusCode !== 201) throw new Error(`key: ${res.body}`);
    keys.push((res.json() as { key: string }).key);
  }
  return keys;
}

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Measures one store: every coding, 200 then 304, app and bare in alternating rounds. */
async function benchStore(e: BenchEnv, env: Record<string, string | undefined>) {
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
  try {
    const { shopId, key } = await seedBenchShop(app, { name: 'rules', rules: RULES, rulesPerCampaign: RULES_PER_CAMPAIGN, rule: benchRule });
    const keys = [key, ...(await moreKeys(app, shopId, e.BENCH_KEYS - 1))];
    for (const coding of e.BENCH_ACCEPT_ENCODING.split(',').map((c) => c.trim())) {
      const auth = { authorization: `Bearer ${key}`, 'accept-encoding': coding };
      const first = await getRaw(urlOf(app), auth);
      const bytes = first.body;
      const etag = first.headers.etag ?? '';
      if (first.status !== 200 || etag === '') throw new Error(`GET /rules answered ${first.status}`);
      const bare = await startBare(bytes, first.headers);
      try {
        const encoding = first.headers['content-encoding'] ?? 'identity';
        print(`GET /api/v1/rules: ${ctx.database.kind}${config.redisUrl ? ' + Redis' : ''} (key cache ${ctx.shopVersions.mode}), ` +
          `${RULES} rules, ${bytes.length} bytes on the wire (${encoding}), ${e.BENCH_CONNECTIONS} connections, ` +
          `${keys.length === 1 ? 'one API key' : `${keys.length} API keys in turn`}, ` +
          `${e.BENCH_ROUNDS} alternating rounds of ${e.BENCH_ROUND_SECONDS} s per side, load ${loadavg()[0]?.toFixed(1) ?? '?'}`);
        for (const [status, headers] of [[200, auth], [304, { ...auth, 'if-none-match': etag }]] as const) {
          await assertSameAnswer(urlOf(app), urlOf(bare), headers);
          const rates = { app: [] as number[], bare: [] as number[] };
          await drive(urlOf(app), headers, 1, e.BENCH_CONNECTIONS, status, keys); // warm-up
          await drive(urlOf(bare), headers, 1, e.BENCH_CONNECTIONS, status, keys);
          for (let round = 0; round < e.BENCH_ROUNDS; round += 1) {
            // Alternate which side goes first, so neither always runs on a warmer machine.
            const order = round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
            for (const side of order) {
              const server = side === 'app' ? app : bare;
              rates[side].push(await drive(urlOf(server), headers, e.BENCH_ROUND_SECONDS, e.BENCH_CONNECTIONS, status, keys));
            }
          }
          // Each round's two sides ran back to back under about the same machine load: the
          // median of the rounds' ratios is less swayed by a load spike than the ratio of means.
          const roundRatios = rates.app.map((rate, i) => rate / (rates.bare[i] ?? Number.NaN));
          print(`  ${status}: app ${mean(rates.app).toFixed(0).padStart(7)} req/s   bare ${mean(rates.bare).toFixed(0).padStart(7)} req/s   ` +
            `ratio ${(mean(rates.app) / mean(rates.bare)).toFixed(2)}   median of round ratios ${median(roundRatios).toFixed(2)} ` +
            `(${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)})`);
        }
      } finally {
        await bare.close();
      }
    }
  } finally {
    await app.close();
    await ctx.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const e = envSchema.parse(process.env);
  const stores = e.BENCH_STORES.split(',').map((s) => s.trim());
  if (stores.includes('pglite')) await benchStore(e, { ...process.env, DATABASE_URL: undefined, REDIS_URL: '' });
  if (!stores.includes('postgres')) return;
  if (process.env.DATABASE_URL) await benchStore(e, process.env);
  else print('(set DATABASE_URL, and REDIS_URL, to measure PostgreSQL too)');
}

await main();
