/**
 * The invalidation bus over PostgreSQL LISTEN/NOTIFY, for deployments on one PostgreSQL
 * without Redis. One pooled connection is held for LISTEN; when it drops, the bus
 * reconnects with backoff and tells listeners that anything may have been missed.
 */
import type { Logger } from 'pino';
import type pg from 'pg';
import { createListenerRegistry, decodeMessage, encodeMessage } from './invalidation-bus.ts';
import type { InvalidationBus } from './invalidation-bus.ts';

export const POSTGRES_INVALIDATION_CHANNEL = 'gcrs_invalidate';

const MIN_RETRY_MS = 250;
const MAX_RETRY_MS = 30_000;

/**
 * A bus on `pool`; resolves once the LISTEN connection is up (or has failed and is retrying).
 *
 * @example
 *   const bus = await createPostgresInvalidationBus(handle.pool, logger);
 */
export async function createPostgresInvalidationBus(pool: pg.Pool, logger: Logger): Promise<InvalidationBus> {
  const listeners = createListenerRegistry();
  let client: pg.PoolClient | undefined;
  let closed = false;
  let retryMs = MIN_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;
  let connectedOnce = false;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== POSTGRES_INVALIDATION_CHANNEL || message.payload === undefined) return;
    const decoded = decodeMessage(message.payload);
    if (decoded) listeners.deliver(decoded.topic, decoded.key);
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  // A lost connection errs more than once (the server's FATAL, then the closed socket), and
  // may do so after its successor is up: only the first error of the current one counts.
  const onLost = (lost: pg.PoolClient, error: unknown) => {
    if (client !== lost) return;
    client = undefined;
    lost.removeAllListeners('notification');
    lost.release(error instanceof Error ? error : true);
    if (closed) return;
    logger.warn({ err: error }, 'invalidation LISTEN connection lost; reconnecting');
    scheduleReconnect();
  };

  async function connect(): Promise<void> {
    let next: pg.PoolClient | undefined;
    try {
      const connected = await pool.connect();
      next = connected;
      connected.on('notification', onNotification);
      connected.on('error', (error: unknown) => onLost(connected, error));
      await connected.query(`LISTEN ${POSTGRES_INVALIDATION_CHANNEL}`);
      if (closed) {
        next.release();
        return;
      }
      client = next;
      retryMs = MIN_RETRY_MS;
      if (connectedOnce) listeners.deliverEverything();
      connectedOnce = true;
    } catch (error) {
      if (next) {
        next.removeAllListeners('notification');
        next.release(true);
      }
      if (closed) return;
      logger.warn({ err: error }, 'invalidation LISTEN failed; retrying');
      scheduleReconnect();
    }
  }

  connecting = connect();
  await connecting;

  return {
    kind: 'postgres',
    publish(topic, key) {
      pool.query('SELECT pg_notify($1, $2)', [POSTGRES_INVALIDATION_CHANNEL, encodeMessage(topic, key)]).catch((error: unknown) => {
        logger.warn({ err: error, topic, key }, 'invalidation publish failed');
      });
    },
    subscribe: (topic, listener) => listeners.add(topic, listener),
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await connecting;
      const open = client;
      client = undefined;
      if (!open) return;
      open.removeAllListeners('notification');
      await open.query(`UNLISTEN ${POSTGRES_INVALIDATION_CHANNEL}`).catch(() => {});
      open.release();
    },
  };
}
