/**
 * Redis-backed sliding-window rate limiter, shared by every app instance.
 *
 * Why: SPEC.md counts limits per API key, not per process, so several instances behind a load
 * balancer must share one window. Each key is a sorted set of allowed requests and one Lua
 * script (redis-script.ts) prunes, counts and adds atomically on Redis's clock, so concurrent
 * instances never exceed the limit and skewed app clocks do not matter.
 *
 * The script is sent by EVALSHA and falls back to EVAL (which also caches it) on NOSCRIPT, after
 * a Redis restart or failover: one round trip in the common case. A call touches its window's
 * key and, when asked, the shop's version key (cache/shop-versions.ts), which is how
 * authentication learns that version without a second round trip. On Redis Cluster both keys
 * would have to share a hash slot; the service runs on one Redis (or a primary with replicas).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { allowedDecision, assertHitArguments, deniedDecision } from './limiter.ts';
import type { CountedDecision, RateLimiter, VersionRead } from './limiter.ts';
import { SLIDING_WINDOW_LUA, SLIDING_WINDOW_SHA, parseSlidingWindowReply } from './redis-script.ts';

export interface RedisRateLimiterOptions {
  /** Prepended to every key; defaults to "ratelimit:". */
  prefix?: string;
}

/**
 * Creates a limiter over an ioredis connection. The connection stays the caller's: `close()`
 * stops this limiter but does not quit the connection, which the wiring root may share.
 *
 * @example
 * const limiter = createRedisRateLimiter(new Redis(config.redisUrl), { prefix: 'gcr:rl:' });
 * const decision = await limiter.hit(`${apiKeyId}:default`, 120, 60_000);
 */
export function createRedisRateLimiter(redis: Redis, options: RedisRateLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? 'ratelimit:';
  let closed = false;

  const runScript = async (keys: readonly string[], args: readonly string[]): Promise<unknown> => {
    try {
      return await redis.evalsha(SLIDING_WINDOW_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return redis.eval(SLIDING_WINDOW_LUA, keys.length, ...keys, ...args);
      }
      throw error;
    }
  };

  return {
    hit: async (key: string, limit: number, windowMs: number, version?: VersionRead): Promise<CountedDecision> => {
      if (closed) throw new Error('redis rate limiter is closed');
      assertHitArguments(limit, windowMs);
      // The nonce also seeds a missing version key: it is unique, so a seeded token is never reused.
      const args = [String(limit), String(windowMs), randomUUID()];
      const reply = parseSlidingWindowReply(
        version === undefined
          ? await runScript([prefix + key], args)
          : await runScript([prefix + key, version.key], [...args, String(version.ttlMs)]),
      );
      const decision = reply.allowed
        ? allowedDecision(limit, reply.count, windowMs)
        : deniedDecision(limit, reply.slotFreesInUs / 1000, reply.emptyInUs / 1000);
      return reply.version === undefined ? decision : { ...decision, version: reply.version };
    },
    close: async () => {
      closed = true;
    },
  };
}
