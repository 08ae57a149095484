/**
 * The rate limiter contract shared by the in-memory and the Redis implementation.
 *
 * Why a true sliding window: SPEC.md "Limits" says "Rate window | sliding 60 seconds, per API key".
 * Fixed buckets let a client send twice the limit across a bucket edge, and the usual
 * "weighted previous bucket" approximation is only right on average. A log of the timestamps of
 * the allowed requests answers the question exactly: a request at time t is allowed iff fewer
 * than `limit` allowed requests lie in (t - windowMs, t]. A denied request is not logged, so a
 * client that keeps retrying while limited does not push its own recovery further away.
 *
 * Being limited is an expected outcome, so `hit` returns a discriminated union instead of
 * throwing (STYLE.md "Expected outcomes are values"); only misuse and infrastructure failures
 * throw.
 */

export type RateLimitDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; remaining: 0; retryAfterSeconds: number; resetSeconds: number };

/**
 * A shop version key to read in the same round trip (only a Redis limiter can; see
 * cache/shop-versions.ts), with its TTL and the shop's lease fence, raised by a call that leases
 * slots so a bump of the version can wait until no lease read under the old token is in use.
 */
export type VersionRead = { key: string; ttlMs: number; fenceKey: string };

/** A decision, with the shop's version token when one was asked for and could be read. */
export type CountedDecision = RateLimitDecision & { version?: string };

export interface RateLimiter {
  /**
   * Counts one request for `key` in a true sliding window of `windowMs`, if a slot is free.
   * With `version`, also returns that version token from the same store in the same step;
   * a limiter that cannot (memory, or Redis failing over) leaves `version` out.
   */
  hit(key: string, limit: number, windowMs: number, version?: VersionRead): Promise<CountedDecision>;
  /**
   * `hit` with its decision in hand where this limiter can decide without waiting: the hot
   * path then waits for no promise. The in-process window always can. The Redis window can
   * only from a live lease of this instance (lease.ts) — exactly the answer `hit` would give
   * from it — and, with `expectedVersion`, only when that lease read this version token.
   * Undefined, with nothing counted, when it cannot: then call `hit`. A limiter that cannot
   * read versions answers undefined whenever `version` is asked for. Absent where every
   * decision takes I/O.
   */
  hitNow?(key: string, limit: number, windowMs: number, version?: VersionRead, expectedVersion?: string): CountedDecision | undefined;
  close(): Promise<void>;
}

/**
 * Throws a RangeError for arguments that can only come from a programming error:
 * `limit` must be a positive integer and `windowMs` a positive integer number of milliseconds.
 *
 * @example
 * assertHitArguments(120, 60_000); // ok
 * assertHitArguments(0, 60_000);   // throws RangeError
 */
export function assertHitArguments(limit: number, windowMs: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  }
  if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
    throw new RangeError(`rate limit window must be a positive integer of milliseconds, got ${windowMs}`);
  }
}

/**
 * Builds the decision for a counted request. `countAfter` includes the request just counted;
 * the window is empty again `windowMs` after it, since it is the newest entry.
 *
 * @example
 * allowedDecision(3, 1, 1_500); // { allowed: true, limit: 3, remaining: 2, resetSeconds: 2 }
 */
export function allowedDecision(limit: number, countAfter: number, windowMs: number): RateLimitDecision {
  return {
    allowed: true,
    limit,
    remaining: Math.max(0, limit - countAfter),
    resetSeconds: Math.ceil(windowMs / 1000),
  };
}

/**
 * Builds the decision for a refused request from two waits in milliseconds: until the entry
 * that blocks the next slot leaves the window, and until the newest entry leaves it.
 * Retry-After is rounded up and never 0, so a client that obeys it is never refused for being
 * a fraction of a second early.
 *
 * @example
 * deniedDecision(3, 100, 900); // { allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1, resetSeconds: 1 }
 */
export function deniedDecision(limit: number, slotFreesInMs: number, emptyInMs: number): RateLimitDecision {
  return {
    allowed: false,
    limit,
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil(slotFreesInMs / 1000)),
    resetSeconds: Math.max(1, Math.ceil(emptyInMs / 1000)),
  };
}
