/**
 * Property: for any arrival sequence, the memory limiter decides exactly what the definition
 * says. The reference model keeps every allowed timestamp in a plain array and counts those in
 * (t - window, t], with none of the limiter's ring, pruning or sweeping.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RateLimitDecision } from '../../src/rate-limit/limiter.ts';
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.ts';

function referenceDecision(log: number[], t: number, limit: number, windowMs: number): RateLimitDecision {
  const inWindow = log.filter((ts) => ts > t - windowMs).sort((a, b) => a - b);
  if (inWindow.length < limit) {
    log.push(t);
    return { allowed: true, limit, remaining: limit - inWindow.length - 1, resetSeconds: Math.ceil(windowMs / 1000) };
  }
  const blocking = inWindow[inWindow.length - limit] ?? Number.NaN;
  const newest = inWindow[inWindow.length - 1] ?? Number.NaN;
  return {
    allowed: false,
    limit,
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil((blocking + windowMs - t) / 1000)),
    resetSeconds: Math.max(1, Math.ceil((newest + windowMs - t) / 1000)),
  };
}

const arrival = fc.record({
  gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 4000 })),
  key: fc.constantFrom('a', 'b', 'c'),
  sweepFirst: fc.boolean(),
});

describe('memory rate limiter against the reference model', () => {
  it('allows exactly what "fewer than limit allowed in (t - window, t]" allows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.array(arrival, { minLength: 1, maxLength: 80 }),
        async (limit, windowMs, arrivals) => {
          let t = 0;
          const limiter = createMemoryRateLimiter({ now: () => t });
          const logs = new Map<string, number[]>();
          try {
            for (const { gapMs, key, sweepFirst } of arrivals) {
              t += gapMs;
              if (sweepFirst) limiter.sweep();
              const log = logs.get(key) ?? [];
              logs.set(key, log);
              expect(await limiter.hit(key, limit, windowMs)).toEqual(referenceDecision(log, t, limit, windowMs));
            }
            // And the invariant itself: no window of windowMs ever holds more than limit allowed hits.
            for (const log of logs.values()) {
              for (const start of log) expect(log.filter((ts) => ts >= start && ts < start + windowMs).length).toBeLessThanOrEqual(limit);
            }
          } finally {
            await limiter.close();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
