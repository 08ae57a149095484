/**
 * The service's Redis connection: one Redis (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES,
 * docs/operations.md "Redis Cluster"), built so that Redis being down costs a request
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
 *
 * On a cluster every script the service runs names all its keys in KEYS, and the keys of one
 * call share a hash tag (`{shp_…}`), so each call touches one slot (rate-limit/redis.ts).
 */
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RedisHealth = 'up' | 'down';

/** How often a cluster connection reads the cluster's topology (CLUSTER SLOTS) again. */
export const CLUSTER_REFRESH_MS = 5000;

/** A connection to one Redis or to a Redis Cluster: the commands the service uses are the same. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: REDIS_URL or REDIS_CLUSTER_NODES (config.ts never lets both be set). */
/** One seed of a Redis Cluster (config.ts parses REDIS_CLUSTER_NODES into these). */
export type RedisClusterNode = { host: string; port: number };

export type RedisTarget = { readonly url: string } | { readonly clusterNodes: readonly RedisClusterNode[] };

/**
 * The configured Redis, if any.
 *
 * @example
 *   redisTargetOf(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.5:7000' })); // { clusterNodes: [{ host: '10.0.0.5', port: 7000 }] }
 */
export function redisTargetOf(config: { redisUrl: string | undefined; redisClusterNodes: readonly RedisClusterNode[] | undefined }): RedisTarget | undefined {
  if (config.redisUrl !== undefined) return { url: config.redisUrl };
  if (config.redisClusterNodes !== undefined) return { clusterNodes: config.redisClusterNodes };
  return undefined;
}

/** Whether `redis` is a cluster connection (ioredis's own flag). */
export const isCluster = (redis: RedisClient): redis is Cluster => redis.isCluster;

/**
 * Opens the connection for `target` and resolves once it is ready, or at once when Redis
 * refuses or fails it, or after the connect timeout: a Redis down at start is the same fallback
 * as one down later (docs/operations.md "Redis down"). Commands fail instead of waiting while
 * Redis is down. ioredis (~100 modules) is loaded here, so a deployment without Redis never
 * loads it (docs/performance.md "Start time and memory").
 *
 * @example
 *   const redis = await createRedisConnection({ url: 'redis://127.0.0.1:6379' }, { timeoutMs: 250, logger });
 */
export async function createRedisConnection(target: RedisTarget, options: { timeoutMs: number; logger: Logger }): Promise<RedisClient> {
  const { Redis: RedisConnection, Cluster: ClusterConnection } = await import('ioredis');
  const connectTimeout = Math.max(1000, options.timeoutMs * 4);
  const retry = (times: number) => Math.min(times * 100, 2000);
  const redis: RedisClient =
    'url' in target
      ? new RedisConnection(target.url, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: options.timeoutMs,
          connectTimeout,
          retryStrategy: retry,
        })
      : new ClusterConnection(
          target.clusterNodes.map(({ host, port }) => ({ host, port })),
          {
            enableOfflineQueue: false,
            clusterRetryStrategy: retry,
            slotsRefreshTimeout: connectTimeout,
            // ioredis otherwise reads the topology again only on a MOVED or a failed command: a
            // master back from a restart or promoted by a failover is found within this.
            slotsRefreshInterval: CLUSTER_REFRESH_MS,
            // The options of each node's connection: the same fail-fast settings as one Redis.
            redisOptions: { maxRetriesPerRequest: 0, commandTimeout: options.timeoutMs, connectTimeout },
          },
        );
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
export function watchRedis(redis: RedisClient, logger: Logger, name: string): void {
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
 * The connections to the masters that serve the cluster's slots, or undefined when a slot has
 * no master or a master has no connection: ioredis drops the connection of a node that went
 * away from its pool while the slot table still names it, so the pool alone can look healthy.
 */
function slotMasters(cluster: Cluster): Redis[] | undefined {
  const byKey = new Map(cluster.nodes('master').map((node) => [`${node.options.host ?? ''}:${node.options.port ?? ''}`, node]));
  const keys = new Set<string | undefined>();
  for (let slot = 0; slot < 16_384; slot += 1) keys.add(cluster.slots[slot]?.[0]);
  const masters = [...keys].map((key) => (key === undefined ? undefined : byKey.get(key)));
  return masters.every((node) => node !== undefined) ? masters : undefined;
}

/**
 * 'up' when the connection is ready and answers PING within its command timeout; on a cluster,
 * when every slot has a master and every such master answers (one that does not leaves its
 * slots, and the shops hashed to them, on the fallback of docs/operations.md "Redis down").
 *
 * @example
 *   const redis = await redisHealth(ctx.redis); // 'down' at once while disconnected
 */
export async function redisHealth(redis: RedisClient): Promise<RedisHealth> {
  if (redis.status !== 'ready') return 'down';
  const nodes = isCluster(redis) ? slotMasters(redis) : [redis];
  if (nodes === undefined || nodes.length === 0) return 'down';
  try {
    const replies = await Promise.all(nodes.map((node) => node.ping()));
    return replies.every((reply) => reply === 'PONG') ? 'up' : 'down';
  } catch {
    return 'down';
  }
}
