/**
 * Whether a database already has every migration of the journal, read in one round trip, so a
 * start on an up-to-date directory can skip drizzle's migrator. The migrator itself always runs
 * `CREATE SCHEMA IF NOT EXISTS`, `CREATE TABLE IF NOT EXISTS` and an empty transaction, which
 * on PGlite cost ~0.15 s of every start (docs/performance.md "Start time and memory").
 *
 * The test is stricter than the migrator's own (which only compares timestamps): the newest
 * applied migration must be the journal's newest, same `created_at` and same hash. Anything
 * else (no migrations table, an older journal, an edited migration) answers false, and the
 * caller runs the migrator exactly as before.
 */
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Database } from './queryable.ts';

type Applied = { hash: string; created_at: string | number };

/**
 * @example
 *   if (!(await migrationsUpToDate(db, MIGRATIONS_FOLDER))) await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
 */
export async function migrationsUpToDate(db: Database, migrationsFolder: string): Promise<boolean> {
  const newest = readMigrationFiles({ migrationsFolder }).at(-1);
  if (newest === undefined) return true;
  // Its own statement: a SELECT naming a missing table would fail at parse time.
  const table = (await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`)) as unknown as {
    rows: Array<{ present: boolean }>;
  };
  if (table.rows[0]?.present !== true) return false;
  const applied = (await db.execute(
    sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
  )) as unknown as { rows: Applied[] };
  const last = applied.rows[0];
  return last !== undefined && Number(last.created_at) === newest.folderMillis && last.hash === newest.hash;
}
