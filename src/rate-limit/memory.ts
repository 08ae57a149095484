/**
 * In-process sliding-window rate limiter: one timestamp ring per key.
 *
 * Why: a single instance (self-hosting, tests, development) needs no Redis, and the log of
 * allowed timestamps gives the exact sliding window of limiter.ts. Memory stays bounded: a key
 * holds at most `limit` timestamps, a key whose window has emptied is dropped when it is next
 * seen, and an unref'd timer sweeps keys nobody asks about again, so one-off API keys do not
 * accumulate. The clock is injectable so the tests can walk through time to the millisecond.
 *
 * Not shared between processes: with several app instances, use redis.ts.
 */
import { allowedDecision, assertHitArguments, deniedDecision } from './limiter.ts';
import type { RateLimitDecision, RateLimiter } from './limiter.ts';
import { TimestampRing } from './timestamp-ring.ts';

export interface MemoryRateLimiterOptions {
  /** Milliseconds from any fixed origin; defaults to a monotonic clock. */
  now?: () => number;
  /** How often idle keys are swept; defaults to 60 s. */
  sweepIntervalMs?: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Drops every key whose window is empty at the current time. */
  sweep(): void;
  /** Keys currently held (for tests and metrics). */
  readonly keyCount: number;
}

interface KeyLog {
  readonly ring: TimestampRing;
  /** The window the key was last hit with; used by the sweep to decide when it is empty. */
  windowMs: number;
}

const monotonicNow = (): number => Math.floor(performance.now());

/**
 * Creates an in-memory limiter.
 *
 * @example
 * const limiter = createMemoryRateLimiter();
 * const decision = await limiter.hit('key_abc:default', 120, 60_000);
 * if (!decision.allowed) reply.header('Retry-After', String(decision.retryAfterSeconds));
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const now = options.now ?? monotonicNow;
  const logs = new Map<string, KeyLog>();
  let closed = false;

  const sweep = (): void => {
    const time = now();
    for (const [key, log] of logs) {
      log.ring.dropThrough(time - log.windowMs);
      if (log.ring.size === 0) logs.delete(key);
    }
  };

  const timer = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
  timer.unref();

  const hit = (key: string, limit: number, windowMs: number): RateLimitDecision => {
    if (closed) throw new Error('memory rate limiter is closed');
    assertHitArguments(limit, windowMs);
    const log = logs.get(key) ?? { ring: new TimestampRing(limit), windowMs };
    // Clamp to the newest entry so an injected clock that steps back cannot unsort the ring.
    const time = Math.max(now(), log.ring.newest() ?? Number.NEGATIVE_INFINITY);
    log.windowMs = windowMs;
    // An entry at ts is inside the window iff ts > time - windowMs.
    log.ring.dropThrough(time - windowMs);

    if (log.ring.size < limit) {
      log.ring.push(time);
      logs.set(key, log);
      return allowedDecision(limit, log.ring.size, windowMs);
    }
    // size >= limit >= 1 here. The next slot frees when the entry at index size - limit leaves
    // (the oldest one, unless the limit of this key was lowered since those entries were logged).
    const blocking = log.ring.at(log.ring.size - limit);
    const newest = log.ring.at(log.ring.size - 1);
    return deniedDecision(limit, blocking + windowMs - time, newest + windowMs - time);
  };

  return {
    hit: async (key, limit, windowMs) => hit(key, limit, windowMs),
    // No versions here: asked for one, it leaves the request to `hit`, which leaves it out.
    hitNow: (key, limit, windowMs, version) => (version === undefined ? hit(key, limit, windowMs) : undefined),
    sweep,
    get keyCount() {
      return logs.size;
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      logs.clear();
    },
  };
}
