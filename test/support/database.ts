/**
 * A migrated, empty database for one test file, of the project's kind: PGlite loads the run's
 * template dump; PostgreSQL gets CREATE DATABASE … TEMPLATE. Each worker reuses, emptied, the
 * databases its earlier files closed (see `idle`).
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { testDatabasePrefix } from './run-databases.ts';

export type TestDbKind = 'pglite' | 'postgres';

export const testDbKind = (): TestDbKind => (process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite');

/**
 * Title prefix of concurrency tests that skip on PGlite: it runs one transaction at a time, so
 * nothing there overlaps and those tests could not fail. The prefix says so in every report.
 *
 * @example
 *   it.skipIf(testDbKind() !== 'postgres')(`${POSTGRES_ONLY}never lets two imports pass a cap`, async () => {});
 */
export const POSTGRES_ONLY = 'PostgreSQL only (PGlite serializes transactions): ';

/** The Redis URL tests on the PostgreSQL project use for limits and invalidation. */
export const testRedisUrl = (): string | undefined =>
  testDbKind() === 'postgres' ? process.env.TEST_REDIS_URL || undefined : undefined;

let templateBlob: Blob | undefined;

async function clonePostgres(): Promise<TestDatabase> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${testDatabasePrefix(inject('testRunId'))}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('postgresTemplate')}"`);
        break;
      } catch (error) {
        // 55006: the template is briefly in use by a concurrent clone; try again.
        if ((error as { code?: string }).code !== '55006' || attempt > 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  // Never dropped here: the instance goes back to the pool, and the run's teardown drops it.
  return { ...(await openPostgres(url.toString(), { migrate: false, poolSize: 5 })), url: url.toString() };
}

export type TestDatabase = DatabaseHandle & { url?: string };

/**
 * Databases this worker has finished with. A worker runs its files one after another and
 * keeps this module between them (vitest.config.ts: isolate false), so a file gets a database
 * a previous file closed, emptied, instead of a new one: a PGlite instance costs about a
 * second of WebAssembly and data-directory loading, a PostgreSQL clone a CREATE and a DROP
 * DATABASE (each a checkpoint's worth of I/O). Keyed by kind: a worker serves one project.
 */
const idle: Record<TestDbKind, TestDatabase[]> = { pglite: [], postgres: [] };
let userTables: string | undefined;

/** Empties every table of the migrated schema, as a fresh clone of the template would be. */
async function emptyDatabase(handle: DatabaseHandle): Promise<void> {
  if (userTables === undefined) {
    const result = await handle.db.execute(sql`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`);
    userTables = (result as unknown as { rows: Array<{ name: string }> }).rows.map((row) => row.name).join(', ');
  }
  if (userTables !== '') await handle.db.execute(sql.raw(`TRUNCATE ${userTables} RESTART IDENTITY CASCADE`));
}

/** A use of a pooled database: closing it returns the database to the pool, once. */
function lease(kind: TestDbKind, database: TestDatabase): TestDatabase {
  let released = false;
  return {
    ...database,
    close: async () => {
      if (released) return;
      released = true;
      idle[kind].push(database);
    },
  };
}

/**
 * Opens a migrated, empty database of the project's kind, for this file alone until it is
 * closed. On PostgreSQL it has its own `url` (for a child process to connect to).
 *
 * @example
 *   const database = await createTestDatabase(); // … await database.close();
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const kind = testDbKind();
  const reused = idle[kind].pop();
  if (reused) {
    await emptyDatabase(reused);
    return lease(kind, reused);
  }
  if (kind === 'postgres') return lease(kind, await clonePostgres());
  templateBlob ??= new Blob([readFileSync(inject('pgliteTemplatePath'))]);
  return lease(kind, await openPglite({ loadDataDir: templateBlob }));
}
