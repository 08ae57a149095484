import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.ts';
import type { MemoryRateLimiter } from '../../src/rate-limit/memory.ts';
import { describeRateLimiterContract } from './contract.ts';
import type { LimiterHarness } from './contract.ts';

/** A limiter on a fake clock that starts at an arbitrary epoch-like time. */
function fakeClockLimiter(): { limiter: MemoryRateLimiter; set: (ms: number) => void } {
  let time = 1_700_000_000_000;
  const limiter = createMemoryRateLimiter({ now: () => time });
  const start = time;
  return { limiter, set: (ms) => void (time = start + ms) };
}

async function memoryHarness(): Promise<LimiterHarness> {
  const { limiter, set } = fakeClockLimiter();
  let counter = 0;
  return {
    // One process: several callers share the very same limiter.
    clients: [limiter, limiter, limiter, limiter],
    ms: (units) => units,
    begin: () => set(0),
    at: async (units) => set(units),
    key: (name) => `${name}:${(counter += 1)}`,
    dispose: () => limiter.close(),
  };
}

describeRateLimiterContract('memory', memoryHarness);

describe('memory rate limiter on an exact clock', () => {
  it('follows the sliding window to the millisecond: limit 3 in 1000 ms, hits at 0, 400, 800', async () => {
    const { limiter, set } = fakeClockLimiter();
    const at = async (ms: number) => {
      set(ms);
      return limiter.hit('k', 3, 1000);
    };
    expect((await at(0)).allowed).toBe(true);
    expect((await at(400)).allowed).toBe(true);
    expect((await at(800)).allowed).toBe(true);
    expect(await at(900)).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1, resetSeconds: 1 });
    expect((await at(999)).allowed).toBe(false);
    // An entry at ts is in the window at t iff ts > t - 1000: the hit of 0 leaves at exactly 1000.
    expect(await at(1001)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 1 });
    expect((await at(1100)).allowed).toBe(false);
    expect((await at(1399)).allowed).toBe(false);
    expect(await at(1401)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await at(1402)).allowed).toBe(false);
    await limiter.close();
  });

  it('frees the slot at exactly ts + window', async () => {
    const { limiter, set } = fakeClockLimiter();
    await limiter.hit('k', 1, 1000);
    set(999);
    expect((await limiter.hit('k', 1, 1000)).allowed).toBe(false);
    set(1000);
    expect((await limiter.hit('k', 1, 1000)).allowed).toBe(true);
    await limiter.close();
  });

  it('rounds Retry-After up to whole seconds and never below 1', async () => {
    const { limiter, set } = fakeClockLimiter();
    await limiter.hit('k', 1, 3000);
    const retryAt = async (ms: number) => {
      set(ms);
      const decision = await limiter.hit('k', 1, 3000);
      return decision.allowed ? 'allowed' : decision.retryAfterSeconds;
    };
    expect(await retryAt(0)).toBe(3);
    expect(await retryAt(1)).toBe(3); // 2.999 s
    expect(await retryAt(999)).toBe(3); // 2.001 s
    expect(await retryAt(1000)).toBe(2); // 2 s exactly
    expect(await retryAt(1999)).toBe(2); // 1.001 s
    expect(await retryAt(2000)).toBe(1);
    expect(await retryAt(2999)).toBe(1); // 1 ms, still at least 1
    expect(await retryAt(3000)).toBe('allowed');
    await limiter.close();
  });

  it('times Retry-After by the oldest request and the reset by the newest', async () => {
    const { limiter, set } = fakeClockLimiter();
    await limiter.hit('k', 2, 5000);
    set(3000);
    await limiter.hit('k', 2, 5000);
    set(3500);
    // A slot frees when the hit of 0 leaves (1.5 s); the window is empty when the hit of 3000 leaves (4.5 s).
    expect(await limiter.hit('k', 2, 5000)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      retryAfterSeconds: 2,
      resetSeconds: 5,
    });
    await limiter.close();
  });

  it('waits for enough entries to leave when the limit of a key is lowered', async () => {
    const { limiter, set } = fakeClockLimiter();
    for (const ms of [0, 1000, 2000]) {
      set(ms);
      await limiter.hit('k', 3, 10_000);
    }
    set(2500);
    // With limit 1, all three entries must leave: the last one at 12000, 9.5 s away.
    expect(await limiter.hit('k', 1, 10_000)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
    set(11_999);
    expect((await limiter.hit('k', 1, 10_000)).allowed).toBe(false);
    set(12_000);
    expect((await limiter.hit('k', 1, 10_000)).allowed).toBe(true);
    await limiter.close();
  });

  it('grows a key log when its limit is raised', async () => {
    const { limiter } = fakeClockLimiter();
    for (let i = 0; i < 2; i += 1) await limiter.hit('k', 2, 1000);
    const raised: boolean[] = [];
    for (let i = 0; i < 5; i += 1) raised.push((await limiter.hit('k', 6, 1000)).allowed);
    expect(raised).toEqual([true, true, true, true, false]);
    await limiter.close();
  });

  it('treats a clock that steps back as not having moved', async () => {
    const { limiter, set } = fakeClockLimiter();
    set(5000);
    await limiter.hit('k', 1, 1000);
    set(4000);
    expect(await limiter.hit('k', 1, 1000)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    set(6000);
    expect((await limiter.hit('k', 1, 1000)).allowed).toBe(true);
    await limiter.close();
  });

  it('keeps memory bounded: the sweep drops keys whose window has emptied', async () => {
    const { limiter, set } = fakeClockLimiter();
    for (let i = 0; i < 100; i += 1) await limiter.hit(`short:${i}`, 5, 1000);
    await limiter.hit('long', 5, 60_000);
    expect(limiter.keyCount).toBe(101);
    set(999);
    limiter.sweep();
    expect(limiter.keyCount).toBe(101);
    set(1000);
    limiter.sweep();
    expect(limiter.keyCount).toBe(1);
    set(60_000);
    limiter.sweep();
    expect(limiter.keyCount).toBe(0);
    await limiter.close();
  });

  it('refuses hits after close', async () => {
    const { limiter } = fakeClockLimiter();
    await limiter.close();
    await expect(limiter.hit('k', 1, 1000)).rejects.toThrow(/closed/);
  });
});

describe('memory rate limiter with raised limits', () => {
  it('allocates a key’s log as requests arrive, not for the whole limit up front', async () => {
    const { limiter, set } = fakeClockLimiter();
    const before = process.memoryUsage().arrayBuffers;
    // RATE_LIMIT_SCALE=1e6 makes the default row 120,000,000 a minute (the GET /rules bench).
    for (let key = 0; key < 5; key += 1) {
      for (let i = 0; i < 300; i += 1) {
        set(i);
        expect((await limiter.hit(`key_${key}:default`, 120_000_000, 60_000)).allowed).toBe(true);
      }
    }
    expect((await limiter.hit('key_0:default', 120_000_000, 60_000)).remaining).toBe(120_000_000 - 301);
    // 5 keys × 300 entries × 8 bytes, doubled at most; a log sized by the limit is 960 MB each.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1_000_000);
    await limiter.close();
  });
});
