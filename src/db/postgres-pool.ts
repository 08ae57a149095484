/**
 * The PostgreSQL pool, made to survive a server that drops its connections: an administrator's
 * `pg_terminate_backend`, a restart, a failover, a proxy that closes idle connections. Each is
 * a FATAL error and a closed socket on every client the server had, idle or checked out.
 *
 * Two things in the libraries end the process or leak a slot there, and both are mended here:
 * - node-postgres emits `'error'` on a client whose connection ends while no query of its is
 *   running; the pool listens only to idle clients, so one checked out for a transaction (between
 *   two of its statements) had no listener and the emit was an uncaught exception. Every client
 *   gets a listener of its own for life.
 * - drizzle's transaction on a pool releases its client only once `BEGIN` has succeeded: a `BEGIN`
 *   on a dead connection left the slot checked out for good, and ten of them left a pool that
 *   every query waited on forever. Transactions here check the client out themselves and always
 *   release it, and a `BEGIN` refused because the connection is gone is tried once more on
 *   another (nothing of the transaction ran, so nothing can happen twice).
 */
import pg from 'pg';
import { NodePgSession } from 'drizzle-orm/node-postgres/session';
import type { Database } from './queryable.ts';
import { isConnectionLoss } from './connection-loss.ts';

/** How long a query waits for a free connection before it fails (the caller gets a 503). */
export const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * A pool whose clients never take the process down when their connection drops.
 *
 * @example
 *   const pool = createPostgresPool('postgres://postgres@127.0.0.1:5432/test', 10);
 */
export function createPostgresPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    // A peer that vanished without closing (a failover, a dead host) is found by TCP keep-alive
    // instead of lasting until the operating system gives up on it.
    keepAlive: true,
  });
  // An idle client that loses its server: the pool has removed it already; nothing to do.
  pool.on('error', () => {});
  // A checked-out client that loses its server: its current or next query fails with the
  // reason, and the pool drops it when it is released (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

type Transaction = Database['transaction'];
type SessionInternals = { dialect: unknown; schema: unknown; options: unknown; transaction: Transaction };

/**
 * Makes `db`'s transactions take their client from `pool` and give it back on every path.
 * `db` is a drizzle database over `pool`.
 *
 * @example
 *   const db = drizzle(pool, { schema }); releaseEveryTransaction(db, pool);
 */
export function releaseEveryTransaction(db: Database, pool: pg.Pool): void {
  const session = (db as unknown as { session: SessionInternals }).session;
  const onClient = (client: pg.PoolClient) =>
    new NodePgSession(client, session.dialect as never, session.schema as never, session.options as never) as unknown as SessionInternals;
  const transaction: Transaction = async (run, config) => {
    for (let attempt = 1; ; attempt += 1) {
      const client = await pool.connect();
      let begun = false;
      let failure: unknown;
      try {
        // On a client (not a pool) drizzle's transaction neither checks out nor releases.
        return await onClient(client).transaction(async (tx) => {
          begun = true;
          return run(tx);
        }, config);
      } catch (error) {
        failure = error;
        if (!begun && attempt === 1 && isConnectionLoss(error)) continue;
        throw error;
      } finally {
        // A connection that failed is not handed out again: the pool closes it.
        client.release(failure !== undefined && isConnectionLoss(failure));
      }
    }
  };
  session.transaction = transaction;
}
