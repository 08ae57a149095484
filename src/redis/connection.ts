/**
 * The service's Redis connection (REDIS_URL), built so that Redis being down costs a request
 * milliseconds, not seconds (docs/operations.md "Redis down").
 *
 * ioredis by default queues commands while disconnected and retries each up to 20 times, so a
 * stopped Redis made every request wait for reconnection; and a connection without an `error`
 * listener prints "Unhandled error event" on every reconnect attempt. Here:
 * - no offline queue and no per-command retry: a command on a down connection fails at once;
 * - every command has a timeout (REDIS_TIMEOUT_MS), for a Redis that accepts and never answers;
 * - reconnection continues in the background, at most every 2 s;
 * - every connection, duplicates included, gets `watchRedis`: an error listener that logs the
 *   outage once (warn) and the recovery once (info), not every retry;
 * - opening waits for the connection's first `ready` (or its first failure, or the connect
 *   timeout): without that, a server's first requests found the connection still connecting,
 *   fell back to the instance's own window and /healthz said "down" with Redis up.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RedisHealth = 'up' | 'down';

/**
 * Opens the connection for `url` and resolves once it is ready, or at once when Redis refuses
 * or fails it, or after the connect timeout: a Redis down at start is the same fallback as one
 * down later (docs/operations.md "Redis down"). Commands fail instead of waiting while Redis
 * is down. ioredis (~100 modules) is loaded here, so a deployment without REDIS_URL never
 * loads it (docs/operations.md "Start time and memory").
 *
 * @example
 *   const redis = await createRedisConnection(config.redisUrl, { timeoutMs: 250, logger });
 */
export async function createRedisConnection(url: string, options: { timeoutMs: number; logger: Logger }): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  const connectTimeout = Math.max(1000, options.timeoutMs * 4);
  const redis = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.timeoutMs,
    connectTimeout,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  watchRedis(redis, options.logger, 'redis');
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, connectTimeout);
    timer.unref();
    redis.once('ready', done).once('error', done);
  });
  return redis;
}

/**
 * Attaches the error listener every ioredis connection needs, logging state changes only.
 *
 * @example
 *   watchRedis(redis.duplicate(), logger, 'invalidation subscriber');
 */
export function watchRedis(redis: Redis, logger: Logger, name: string): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) {
      logger.debug({ err: error, connection: name }, 'redis still unavailable');
      return;
    }
    down = true;
    logger.warn({ err: error, connection: name }, 'redis unavailable; reconnecting in the background');
  });
  redis.on('ready', () => {
    if (down) logger.info({ connection: name }, 'redis connection restored');
    down = false;
  });
}

/**
 * 'up' when the connection is ready and answers PING within its command timeout.
 *
 * @example
 *   const redis = await redisHealth(ctx.redis); // 'down' at once while disconnected
 */
export async function redisHealth(redis: Redis): Promise<RedisHealth> {
  if (redis.status !== 'ready') return 'down';
  try {
    return (await redis.ping()) === 'PONG' ? 'up' : 'down';
  } catch {
    return 'down';
  }
}
