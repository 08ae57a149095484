/**
 * What the seed and benchmark scripts share: which database they run on (DATABASE_URL, else
 * the embedded one in DATA_DIR, exactly as the server chooses), the sizes, and the ids the
 * seed gives its shops, campaigns and rules so the benchmark can find them again.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import type { Database, DatabaseHandle } from '../src/db/database.ts';

const count = z.coerce.number().int().min(1);

const benchEnvSchema = z.object({
  /** Multiplies the default sizes: 0.1 seeds a tenth. */
  BENCH_SCALE: z.coerce.number().positive().default(1),
  BENCH_SHOPS: count.optional(),
  BENCH_ORDERS: count.optional(),
  BENCH_EVENTS: z.coerce.number().int().min(0).optional(),
  /** Orders are spread over this many days before now. */
  BENCH_DAYS: count.default(365),
  BENCH_QUERIES: count.default(300),
  BENCH_INGEST_EVENTS: count.optional(),
  BENCH_CONCURRENCY: count.optional(),
});

export const CAMPAIGNS_PER_SHOP = 4;
export const RULES_PER_CAMPAIGN = 2;

export const benchShopId = (index: number) => `shp_bench${String(index).padStart(6, '0')}`;
export const benchCampaignId = (shopId: string, c: number) => `cmp_${shopId.slice(4)}c${c}`;
export const benchRuleId = (campaignId: string, r: number) => `rul_${campaignId.slice(4)}r${r}`;

export type BenchSetup = {
  handle: DatabaseHandle;
  db: Database;
  kind: 'pglite' | 'postgres';
  shops: number;
  orders: number;
  events: number;
  days: number;
  queries: number;
  ingestEvents: number;
  concurrency: number;
};

/**
 * Opens the database and resolves the sizes: 1,000 shops, 1,000,000 orders and 10,000,000
 * events on PostgreSQL, a tenth of each on PGlite, times BENCH_SCALE, unless set one by one.
 *
 * @example
 *   const bench = await openBench(process.env);
 */
export async function openBench(env: Record<string, string | undefined>): Promise<BenchSetup> {
  const config = loadConfig(env);
  const e = benchEnvSchema.parse(env);
  const handle = await openDatabase(config);
  const base = handle.kind === 'postgres' ? 1 : 0.1;
  const scaled = (full: number) => Math.max(1, Math.round(full * base * e.BENCH_SCALE));
  return {
    handle,
    db: handle.db,
    kind: handle.kind,
    shops: e.BENCH_SHOPS ?? scaled(1000),
    orders: e.BENCH_ORDERS ?? scaled(1_000_000),
    events: e.BENCH_EVENTS ?? scaled(10_000_000),
    days: e.BENCH_DAYS,
    queries: e.BENCH_QUERIES,
    ingestEvents: e.BENCH_INGEST_EVENTS ?? (handle.kind === 'postgres' ? 200_000 : 20_000),
    concurrency: e.BENCH_CONCURRENCY ?? (handle.kind === 'postgres' ? 8 : 1),
  };
}

/** Rows of a raw SQL statement, on either driver. */
export async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Runs `query` with a fixed random seed, so two seeds of one size hold the same data. */
export async function runSeeded(db: Database, seed: number, query: SQL): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT setseed(${seed})`);
    await tx.execute(query);
  });
}

export const elapsed = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
