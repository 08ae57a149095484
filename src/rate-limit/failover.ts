/**
 * The Redis-down policy of the rate limiter (docs/operations.md "Redis down"): fail open to
 * this instance's own sliding window.
 *
 * Why not 503: Redis only shares the windows between instances; it holds no shop data. Refusing
 * every API call while it is down would stop every shop's storefront for an outage of a
 * counter. With the memory window each instance still enforces SPEC's limits on the requests
 * it sees, so a key can get at most (instances × limit) per window during the outage, and
 * abuse stays bounded. The limit is exact again once Redis answers: the primary is asked first
 * on every call while its connection is ready.
 *
 * Invariants: a decision never waits longer than the primary's command timeout; arguments
 * that can only be a programming error still throw (they are checked before any fallback).
 */
import type { Logger } from 'pino';
import { assertHitArguments } from './limiter.ts';
import type { RateLimitDecision, RateLimiter } from './limiter.ts';

export type FailoverRateLimiterOptions = {
  primary: RateLimiter;
  fallback: RateLimiter;
  /** False while the primary is known to be unreachable: skip it without trying. */
  isAvailable: () => boolean;
  logger: Logger;
  /** At most one warning per this many ms while the primary keeps failing; default 30 s. */
  warnEveryMs?: number;
};

/**
 * A limiter that asks `primary` and answers from `fallback` when the primary fails.
 *
 * @example
 *   const limiter = createFailoverRateLimiter({ primary: redisLimiter, fallback: createMemoryRateLimiter(),
 *     isAvailable: () => redis.status === 'ready', logger });
 */
export function createFailoverRateLimiter(options: FailoverRateLimiterOptions): RateLimiter {
  const { primary, fallback, isAvailable, logger } = options;
  const warnEveryMs = options.warnEveryMs ?? 30_000;
  let lastWarning = Number.NEGATIVE_INFINITY;

  const fallBack = (key: string, limit: number, windowMs: number, error: unknown): Promise<RateLimitDecision> => {
    const now = performance.now();
    if (now - lastWarning >= warnEveryMs) {
      lastWarning = now;
      logger.warn({ err: error }, 'rate limiter: shared window unavailable, using the window of this instance');
    }
    return fallback.hit(key, limit, windowMs);
  };

  return {
    // The fallback's decisions carry no version: whoever asked for one reads the database.
    hit: async (key, limit, windowMs, version) => {
      assertHitArguments(limit, windowMs);
      if (!isAvailable()) return fallBack(key, limit, windowMs, new Error('redis is not connected'));
      try {
        return await primary.hit(key, limit, windowMs, version);
      } catch (error) {
        return fallBack(key, limit, windowMs, error);
      }
    },
    // Only the primary's leases answer at once; while it is away every request goes by `hit`.
    hitNow: (key, limit, windowMs, version, expectedVersion) =>
      isAvailable() ? primary.hitNow?.(key, limit, windowMs, version, expectedVersion) : undefined,
    close: async () => {
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
