/** The Redis-down policy in isolation: a failing or unavailable primary hands over to the fallback. */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createFailoverRateLimiter } from '../../src/rate-limit/failover.ts';
import type { RateLimiter } from '../../src/rate-limit/limiter.ts';
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.ts';

function failing(): RateLimiter & { calls: number } {
  const limiter = {
    calls: 0,
    hit: async () => {
      limiter.calls += 1;
      throw new Error('Command timed out');
    },
    close: async () => {},
  };
  return limiter;
}

function capture() {
  const lines: string[] = [];
  return { lines, logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }) };
}

describe('failover rate limiter', () => {
  it('answers from the fallback window when the primary fails, and warns once per interval', async () => {
    const primary = failing();
    const { lines, logger } = capture();
    const limiter = createFailoverRateLimiter({ primary, fallback: createMemoryRateLimiter(), isAvailable: () => true, logger });
    const decisions = [await limiter.hit('k', 2, 60_000), await limiter.hit('k', 2, 60_000), await limiter.hit('k', 2, 60_000)];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(primary.calls).toBe(3);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Command timed out');
    await limiter.close();
  });

  it('does not try the primary while it is known to be unavailable', async () => {
    const primary = failing();
    const { logger } = capture();
    const limiter = createFailoverRateLimiter({ primary, fallback: createMemoryRateLimiter(), isAvailable: () => false, logger });
    expect(await limiter.hit('k', 1, 1000)).toMatchObject({ allowed: true });
    expect(primary.calls).toBe(0);
    await limiter.close();
  });

  it('uses the primary when it answers, and still throws for impossible arguments', async () => {
    const primary = createMemoryRateLimiter();
    const fallback = failing();
    const { logger } = capture();
    const limiter = createFailoverRateLimiter({ primary, fallback, isAvailable: () => true, logger });
    expect(await limiter.hit('k', 1, 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(fallback.calls).toBe(0);
    await expect(limiter.hit('k', 0, 1000)).rejects.toThrow(RangeError);
    await limiter.close();
  });

  it('answers at once (hitNow) only through an available primary: otherwise nothing is counted and hit decides', async () => {
    let available = true;
    const primary = createMemoryRateLimiter();
    const fallback = createMemoryRateLimiter();
    const { logger } = capture();
    const limiter = createFailoverRateLimiter({ primary, fallback, isAvailable: () => available, logger });
    expect(limiter.hitNow?.('k', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1 });
    // The in-process window reads no versions: asked for one, it leaves the request to hit.
    expect(limiter.hitNow?.('k', 2, 60_000, { key: 'v', ttlMs: 1000, fenceKey: 'f' })).toBeUndefined();
    available = false;
    expect(limiter.hitNow?.('k', 2, 60_000)).toBeUndefined();
    expect(primary.keyCount + fallback.keyCount).toBe(1);
    // The fallback decides alone while the primary is away; the primary counted one request only.
    expect(await limiter.hit('k', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1 });
    available = true;
    expect(limiter.hitNow?.('k', 2, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    await limiter.close();
  });
});
