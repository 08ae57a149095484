/**
 * A fresh database for one test file, cloned from the run's migrated template: PGlite loads
 * the template dump; PostgreSQL gets CREATE DATABASE … TEMPLATE and is dropped afterwards.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';

export type TestDbKind = 'pglite' | 'postgres';

export const testDbKind = (): TestDbKind => (process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite');

/** The Redis URL tests on the PostgreSQL project use for limits and invalidation. */
export const testRedisUrl = (): string | undefined =>
  testDbKind() === 'postgres' ? process.env.TEST_REDIS_URL || undefined : undefined;

let templateBlob: Blob | undefined;

async function clonePostgres(): Promise<{ handle: DatabaseHandle; url: string }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `gcrs_test_${randomBytes(6).toString('hex')}`;
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
  const handle = await openPostgres(url.toString(), { migrate: false, poolSize: 5 });
  const close = async () => {
    await handle.close();
    const dropper = new pg.Client({ connectionString: baseUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => dropper.end());
  };
  return { handle: { ...handle, close }, url: url.toString() };
}

/**
 * PGlite instances this worker has finished with. A worker runs its files one after another
 * and keeps this module between them (vitest.config.ts: isolate false), so a file gets an
 * instance a previous file closed, emptied, instead of starting a new PGlite from the template
 * (about a second of WebAssembly and data-directory loading each).
 */
const idlePglite: DatabaseHandle[] = [];
let userTables: string | undefined;

/** Empties every table of the migrated schema, as a fresh clone of the template would be. */
async function emptyPglite(handle: DatabaseHandle): Promise<void> {
  if (userTables === undefined) {
    const result = await handle.db.execute(sql`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`);
    userTables = (result as unknown as { rows: Array<{ name: string }> }).rows.map((row) => row.name).join(', ');
  }
  if (userTables !== '') await handle.db.execute(sql.raw(`TRUNCATE ${userTables} RESTART IDENTITY CASCADE`));
}

/** A use of a pooled instance: closing it returns the instance to the pool, once. */
function lease(instance: DatabaseHandle): DatabaseHandle {
  let released = false;
  return {
    ...instance,
    close: async () => {
      if (released) return;
      released = true;
      idlePglite.push(instance);
    },
  };
}

async function pooledPglite(): Promise<DatabaseHandle> {
  const reused = idlePglite.pop();
  if (reused) {
    await emptyPglite(reused);
    return lease(reused);
  }
  templateBlob ??= new Blob([readFileSync(inject('pgliteTemplatePath'))]);
  return lease(await openPglite({ loadDataDir: templateBlob }));
}

/**
 * Opens a new, migrated, empty database of the project's kind.
 *
 * @example
 *   const database = await createTestDatabase(); // … await database.close();
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (testDbKind() === 'postgres') {
    const { handle, url } = await clonePostgres();
    return { ...handle, url };
  }
  return pooledPglite();
}
