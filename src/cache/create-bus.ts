/** Picks the invalidation transport the deployment has (CONTRACT: Redis first). */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis/connection.ts';
import { createMemoryInvalidationBus } from './invalidation-bus.ts';
import type { InvalidationBus } from './invalidation-bus.ts';
import { createPostgresInvalidationBus } from './postgres-bus.ts';
import { createRedisInvalidationBus } from './redis-bus.ts';

/**
 * Redis pub/sub when REDIS_URL or REDIS_CLUSTER_NODES is set, else LISTEN/NOTIFY on PostgreSQL, else in process
 * (the embedded database admits one process only, so there is nobody else to tell).
 *
 * @example
 *   const bus = await createInvalidationBus({ redis, pool: database.pool, logger });
 */
export async function createInvalidationBus(deps: {
  redis: RedisClient | undefined;
  pool: pg.Pool | undefined;
  logger: Logger;
}): Promise<InvalidationBus> {
  if (deps.redis) return createRedisInvalidationBus(deps.redis, deps.logger);
  if (deps.pool) return createPostgresInvalidationBus(deps.pool, deps.logger);
  return createMemoryInvalidationBus();
}
