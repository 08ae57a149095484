/**
 * Opens the one database the service runs on: embedded PGlite under DATA_DIR by default, or
 * PostgreSQL when DATABASE_URL is set. Both speak the same SQL and run the same migrations.
 * Each opener loads its own driver, so a start loads only the one it uses (PGlite or pg, each
 * with its drizzle adapter): docs/performance.md "Start time and memory".
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import * as schema from './schema.ts';
import { migrationsUpToDate } from './migration-state.ts';
import type { PGlite } from '@electric-sql/pglite';
import { startPglite } from './pglite-start.ts';
import type { StartedPglite } from './pglite-start.ts';
import type { Database } from './queryable.ts';

// The handle's types have a module of their own, which the openers' helpers (migration-state.ts,
// postgres-pool.ts) import without importing this one back; every other file imports them here.
export type { Database, Queryable, Schema, Tx } from './queryable.ts';

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL only: a pool for LISTEN/NOTIFY and other raw work; undefined on PGlite. */
  pool: pg.Pool | undefined;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Set when the handle was returned before its database was open and migrated
   * (`openPglite(…, { deferReady: true })`): resolves once it is, rejects if it cannot be. Every
   * query of `db` waits for it. Absent: ready when returned.
   */
  ready?: Promise<void>;
  close(): Promise<void>;
};

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../migrations', import.meta.url));

async function ping(db: Database): Promise<void> {
  await db.execute(sql`SELECT 1`);
}

// Serialises migrations when several instances start at once on one PostgreSQL.
const MIGRATION_LOCK_KEY = 7_235_114_021;

/**
 * Opens PostgreSQL at `url` and brings its schema up to date.
 *
 * @example
 *   const handle = await openPostgres('postgres://postgres@127.0.0.1:5432/test');
 */
export async function openPostgres(url: string, options: { migrate?: boolean; poolSize?: number } = {}): Promise<DatabaseHandle> {
  const [{ createPostgresPool, releaseEveryTransaction }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }] = await Promise.all([
    import('./postgres-pool.ts'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = createPostgresPool(url, options.poolSize ?? 10);
  const db = drizzleNodePg(pool, { schema }) as unknown as Database;
  // A dropped connection never ends the process or keeps a pool slot (postgres-pool.ts).
  releaseEveryTransaction(db, pool);
  if (options.migrate !== false) {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      // On the locked client itself: a pool of one would otherwise wait for itself.
      await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      client.release();
    }
  }
  return { db, kind: 'postgres', pool, ping: () => ping(db), close: () => pool.end() };
}

/**
 * Opens (creating if needed) the embedded database in `dataDir`, locked against a second
 * process, and brings its schema up to date (skipping the migrator when it has nothing to do).
 * `sharedBuffers` is PostgreSQL's `shared_buffers`: PGlite touches all of it at start, so it
 * is resident memory from the first second (128MB, PostgreSQL's default, costs ~100 MB more
 * RSS than the 32MB used here). `started` is a start already under way (pglite-start.ts),
 * which src/main.ts begins before loading the server.
 *
 * @example
 *   const handle = await openPglite({ dataDir: './data' });
 */
export async function openPglite(
  source: { dataDir: string } | { loadDataDir: Blob },
  options: { sharedBuffers?: string | undefined; started?: Promise<StartedPglite>; deferReady?: boolean } = {},
): Promise<DatabaseHandle> {
  const [{ client, release }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    options.started ?? startPglite(source, options),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  // drizzle's PGlite driver calls only query and transaction, which the thread's client has too.
  const migrated = (async () => {
    // A database that cannot open says so itself, not as the migration check's failed query.
    if ('opened' in client) await client.opened;
    const migrator = drizzlePglite(client as PGlite, { schema });
    if (!(await migrationsUpToDate(migrator as unknown as Database, MIGRATIONS_FOLDER))) {
      await migratePglite(migrator, { migrationsFolder: MIGRATIONS_FOLDER });
    }
  })();
  const close = async () => {
    await client.close().catch(() => {});
    release();
  };
  if (!options.deferReady) {
    try {
      await migrated;
    } catch (error) {
      await close();
      throw error;
    }
  }
  // Deferred: the service's queries wait for the migrations (which run on `client` itself).
  const gated = options.deferReady ? afterReady(client, migrated) : client;
  const db = drizzlePglite(gated as PGlite, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pool: undefined,
    ping: () => ping(db),
    ...(options.deferReady ? { ready: migrated } : {}),
    close,
  };
}

/** `client` whose queries and transactions start once `ready` resolves (and fail with it). */
function afterReady(client: StartedPglite['client'], ready: Promise<void>): Pick<PGlite, 'query' | 'exec' | 'transaction'> {
  ready.catch(() => undefined); // the handle's owner awaits it; this only keeps it from counting as unhandled
  return {
    query: async (...args: Parameters<PGlite['query']>) => (await ready, client.query(...args)),
    exec: async (...args: Parameters<PGlite['exec']>) => (await ready, client.exec(...args)),
    transaction: async (...args: Parameters<PGlite['transaction']>) => (await ready, client.transaction(...args)),
  } as Pick<PGlite, 'query' | 'exec' | 'transaction'>;
}

/** Opens whichever database the configuration names. */
export function openDatabase(
  config: { databaseUrl: string | undefined; dataDir: string; pgliteSharedBuffers?: string | undefined },
  options: { startedPglite?: Promise<StartedPglite>; deferReady?: boolean } = {},
): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl)
    : openPglite(
        { dataDir: config.dataDir },
        { sharedBuffers: config.pgliteSharedBuffers, started: options.startedPglite, deferReady: options.deferReady },
      );
}
