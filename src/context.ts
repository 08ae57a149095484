/**
 * The one wiring root: every service the handlers use is built here from the Config and
 * handed down explicitly (no container, no global db import).
 */
import type { Redis } from 'ioredis';
import pino from 'pino';
import type { Logger } from 'pino';
import { createInvalidationBus } from './cache/create-bus.ts';
import type { InvalidationBus } from './cache/invalidation-bus.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import type { Database, DatabaseHandle } from './db/database.ts';
import { createFailoverRateLimiter } from './rate-limit/failover.ts';
import type { RateLimiter } from './rate-limit/limiter.ts';
import { createMemoryRateLimiter } from './rate-limit/memory.ts';
import { createRedisRateLimiter } from './rate-limit/redis.ts';
import { createRedisConnection } from './redis/connection.ts';
import { createRulesCache } from './rules/rules-cache.ts';
import type { RulesCache } from './rules/rules-cache.ts';

export type AppContext = {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  db: Database;
  /** Present when REDIS_URL is set; shared by limiter and cache invalidation. */
  redis: Redis | undefined;
  limiter: RateLimiter;
  /** Tells every instance to drop a cached entry (Redis pub/sub, LISTEN/NOTIFY or in process). */
  invalidation: InvalidationBus;
  /** GET /rules payloads per shop; call rulesCache.invalidate(shopId) after a write commits. */
  rulesCache: RulesCache;
  /** The clock schedule windows are judged by (the rules cache's too); tests inject one. */
  now: () => Date;
  /** Releases everything in reverse order of creation. */
  close(): Promise<void>;
};

export type ContextOverrides = { database?: DatabaseHandle; logger?: Logger; now?: () => Date };

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    // Secrets never reach the log: keys are logged by their prefix only.
    redact: ['req.headers.authorization', 'headers.authorization', 'key'],
  });
}

/**
 * Builds the services for `config`. Tests pass their own database handle.
 *
 * @example
 *   const ctx = await createAppContext(loadConfig(process.env));
 */
export async function createAppContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config);
  const database = overrides.database ?? (await openDatabase(config));
  const redis = config.redisUrl
    ? createRedisConnection(config.redisUrl, { timeoutMs: config.redisTimeoutMs, logger })
    : undefined;
  // Redis down: fail open to this instance's window (rate-limit/failover.ts says why).
  const limiter = redis
    ? createFailoverRateLimiter({
        primary: createRedisRateLimiter(redis),
        fallback: createMemoryRateLimiter(),
        isAvailable: () => redis.status === 'ready',
        logger,
      })
    : createMemoryRateLimiter();
  const invalidation = await createInvalidationBus({ redis, pool: database.pool, logger });
  const now = overrides.now ?? (() => new Date());
  const rulesCache = createRulesCache({ db: database.db, bus: invalidation, now });
  return {
    config,
    logger,
    database,
    db: database.db,
    redis,
    limiter,
    invalidation,
    rulesCache,
    now,
    async close() {
      rulesCache.close();
      await invalidation.close();
      await limiter.close();
      // quit() fails at once while disconnected; disconnect() then stops the reconnect loop.
      if (redis) await redis.quit().catch(() => redis.disconnect());
      if (!overrides.database) await database.close();
    },
  };
}
