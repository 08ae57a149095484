/**
 * Leases of limiter slots (src/rate-limit/lease.ts) on real Redis, with separate connections
 * standing in for app instances: the shared window is never exceeded, unused slots go back,
 * the headers of one instance stay exact, near the limit every request makes its own call, and
 * a version bump waits for the leases read under the old version. Runs when TEST_REDIS_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createRedisShopVersions, shopLeaseFenceKey, shopVersionKey } from '../../src/cache/shop-versions.ts';
import { BUSY_GAP_MS, LEASE_MS } from '../../src/rate-limit/lease.ts';
import type { CountedDecision, RateLimiter } from '../../src/rate-limit/limiter.ts';
import { createRedisRateLimiter } from '../../src/rate-limit/redis.ts';
import { SLIDING_WINDOW_BATCH_SHA } from '../../src/rate-limit/redis-script.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** How many limiter calls one EVALSHA carries: one, or as many as its batch has (redis-batch.ts). */
function hitsOf(args: readonly unknown[]): number {
  if (args[0] !== SLIDING_WINDOW_BATCH_SHA) return 1;
  const argv = args.slice(2 + Number(args[1])).map(String);
  let hits = 0;
  for (let a = 0; a < argv.length; a += 2 + Number(argv[a + 1])) hits += 1;
  return hits;
}

/** A connection whose script calls are counted (a batch's calls each), so a test can tell leased answers from calls. */
async function countedConnection(url: string): Promise<{ redis: Redis; calls: () => number }> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  await redis.ping();
  let calls = 0;
  const evalsha = redis.evalsha.bind(redis);
  redis.evalsha = ((...args: Parameters<typeof evalsha>) => {
    calls += hitsOf(args);
    return evalsha(...args);
  }) as typeof redis.evalsha;
  return { redis, calls: () => calls };
}

async function withInstances(count: number, run: (ctx: { prefix: string; redis: Redis[]; limiters: RateLimiter[]; calls: () => number }) => Promise<void>) {
  const url = redisUrl ?? '';
  const prefix = `test:lease:${process.pid}:${randomUUID()}:`;
  const connections = await Promise.all(Array.from({ length: count }, () => countedConnection(url)));
  const limiters = connections.map(({ redis }) => createRedisRateLimiter(redis, { prefix }));
  try {
    await run({ prefix, redis: connections.map((c) => c.redis), limiters, calls: () => connections.reduce((sum, c) => sum + c.calls(), 0) });
  } finally {
    await Promise.all(limiters.map((limiter) => limiter.close()));
    const [first] = connections;
    if (first) {
      const keys = await first.redis.keys(`${prefix}*`);
      if (keys.length > 0) await first.redis.del(...keys);
    }
    await Promise.all(connections.map(({ redis }) => redis.quit()));
  }
}

/** `n` hits at once, as concurrent requests would arrive. */
const burst = (limiter: RateLimiter, n: number, key: string, limit: number, windowMs: number) =>
  Promise.all(Array.from({ length: n }, () => limiter.hit(key, limit, windowMs)));

describe.skipIf(!redisUrl)('rate limiter leases on Redis', { retry: 2 }, () => {
  it('serves a busy key from leased slots, hands the unused ones back, and keeps one instance\'s remaining exact', async () => {
    await withInstances(1, async ({ prefix, redis: [redis], limiters: [limiter], calls }) => {
      if (!limiter || !redis) throw new Error('no instance');
      const limit = 1600;
      // Ten at once: the second finds the first in flight and asks for a lease (16 slots); the
      // other eight wait for that call rather than making their own, and are served from it.
      const first = await burst(limiter, 10, 'k', limit, 60_000);
      const callsAfterBurst = calls();
      expect(callsAfterBurst).toBe(2);
      // Within the lease's life, the next hits are answered without Redis (three more leave
      // 5 of 16 slots, short of the three quarters that would send a renewal ahead).
      const next: CountedDecision[] = [];
      for (let i = 0; i < 3; i += 1) next.push(await limiter.hit('k', limit, 60_000));
      expect(calls()).toBe(callsAfterBurst);
      const decisions = [...first, ...next];
      expect(decisions.every((d) => d.allowed)).toBe(true);
      // One instance: every request saw its own count, as without leases.
      expect(decisions.map((d) => d.remaining).sort((a, b) => b - a)).toEqual(Array.from({ length: 13 }, (_, i) => limit - 1 - i));
      // Leased entries are in the window, scored at the lease's end on Redis's clock.
      const [seconds, micros] = await redis.time();
      const redisNowUs = Number(seconds) * 1e6 + Number(micros);
      const scores = (await redis.zrange(`${prefix}k`, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1).map(Number);
      expect(Math.max(...scores)).toBeGreaterThan(redisNowUs - LEASE_MS * 1000);
      expect(Math.max(...scores)).toBeLessThanOrEqual(redisNowUs + LEASE_MS * 1000);
      // After the lease's end only the 13 real requests stay counted.
      await sleep(LEASE_MS * 3);
      expect(await redis.zcard(`${prefix}k`)).toBe(13);
      expect(await limiter.hit('k', limit, 60_000)).toMatchObject({ allowed: true, remaining: limit - 14 });
    });
  });

  it('leases for a key busy one request at a time: requests closer than BUSY_GAP_MS are served without their own calls', async () => {
    await withInstances(1, async ({ prefix, redis: [redis], limiters: [limiter], calls }) => {
      if (!limiter || !redis) throw new Error('no instance');
      const limit = 1600;
      const decisions: CountedDecision[] = [];
      // 20 requests one after another, each answered before the next is sent, 1 ms apart on the
      // limiter's clock (performance.now, faked here): on a loaded machine real gaps exceed
      // BUSY_GAP_MS (6 ms) and the key would rightly not count as busy. Timers stay real.
      vi.useFakeTimers({ toFake: ['performance'] });
      try {
        for (let i = 0; i < 20; i += 1) {
          decisions.push(await limiter.hit('seq', limit, 60_000));
          vi.advanceTimersByTime(1);
        }
      } finally {
        vi.useRealTimers();
      }
      // The first two make calls (the second asks for a lease, the gap being short); the rest are
      // served from that lease and at most two renewals.
      expect(calls()).toBeLessThanOrEqual(4);
      expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: 20 }, (_, i) => limit - 1 - i));
      // The unused slots go back when the last lease ends (a real timer): then only the 20 requests count.
      await vi.waitFor(async () => expect(await redis.zcard(`${prefix}seq`)).toBe(20), { timeout: 10_000, interval: LEASE_MS });
    });
  });

  it('leases nothing for a key whose requests come further apart than BUSY_GAP_MS', async () => {
    await withInstances(1, async ({ prefix, redis: [redis], limiters: [limiter], calls }) => {
      if (!limiter || !redis) throw new Error('no instance');
      for (let i = 0; i < 5; i += 1) {
        await limiter.hit('slow', 1600, 60_000);
        await sleep(BUSY_GAP_MS * 2);
      }
      expect(calls()).toBe(5);
      expect(await redis.zcard(`${prefix}slow`)).toBe(5);
    });
  });

  it('answers at once (hitNow) only from a live lease, as hit would, and otherwise counts nothing', async () => {
    await withInstances(1, async ({ prefix, redis: [redis], limiters: [limiter], calls }) => {
      if (!limiter?.hitNow || !redis) throw new Error('no instance');
      const shopId = `shp_${randomUUID().replaceAll('-', '')}`;
      const version = { key: shopVersionKey(shopId), ttlMs: 30_000, fenceKey: shopLeaseFenceKey(shopId) };
      try {
        const limit = 1600;
        // No lease yet: nothing is decided, counted or sent.
        expect(limiter.hitNow('now', limit, 60_000, version)).toBeUndefined();
        expect(calls()).toBe(0);
        expect(await redis.zcard(`${prefix}now`)).toBe(0);
        const first = await Promise.all(Array.from({ length: 10 }, () => limiter.hit('now', limit, 60_000, version)));
        const token = first[0]?.version;
        const callsAfterBurst = calls();
        // Another token expected, or another limit or window: not this lease's, so not now.
        expect(limiter.hitNow('now', limit, 60_000, version, 'another token')).toBeUndefined();
        expect(limiter.hitNow('now', limit - 1, 60_000, version, token)).toBeUndefined();
        expect(limiter.hitNow('now', limit, 60_000, undefined)).toBeUndefined();
        // The lease's own: decided at once, counted in order, with the token the lease read.
        const now = [limiter.hitNow('now', limit, 60_000, version, token), limiter.hitNow('now', limit, 60_000, version)];
        expect(now).toMatchObject([
          { allowed: true, remaining: limit - 11, version: token },
          { allowed: true, remaining: limit - 12, version: token },
        ]);
        expect(calls()).toBe(callsAfterBurst);
        // Once the lease has ended, nothing at once again; the unused slots went back and only
        // the 12 requests stay counted.
        await sleep(LEASE_MS * 3);
        expect(limiter.hitNow('now', limit, 60_000, version, token)).toBeUndefined();
        expect(await redis.zcard(`${prefix}now`)).toBe(12);
      } finally {
        await redis.del(shopVersionKey(shopId), shopLeaseFenceKey(shopId));
      }
    });
  });

  it('never lets two busy instances exceed the limit in any sliding window', async () => {
    await withInstances(2, async ({ limiters, calls }) => {
      const limit = 480;
      const windowMs = 600;
      const runMs = 1800;
      // Each allowed request at the local time it was answered, and the time it was asked.
      const allowed: Array<{ asked: number; answered: number }> = [];
      let hits = 0;
      const start = performance.now();
      // Half the loops ask for an answer at once first, as the API's authentication does.
      const worker = async (limiter: RateLimiter, atOnce: boolean) => {
        while (performance.now() - start < runMs) {
          const asked = performance.now();
          const decision = (atOnce ? limiter.hitNow?.('shared', limit, windowMs) : undefined) ?? (await limiter.hit('shared', limit, windowMs));
          hits += 1;
          if (decision.allowed) allowed.push({ asked, answered: performance.now() });
          else await sleep(1);
        }
      };
      await Promise.all(limiters.flatMap((limiter) => Array.from({ length: 8 }, (_, i) => worker(limiter, i % 2 === 0))));

      // Leases answered a good share of the allowed requests (else this would not test them):
      // every other hit, allowed or refused, made one call.
      expect(hits - calls()).toBeGreaterThan(limit / 4);
      // The load reached the limit in every window.
      expect(allowed.length).toBeGreaterThan(limit * (runMs / windowMs) * 0.8);
      // A request counts at a moment between its asking and its answer: a window shortened by
      // the slowest round trip on both ends can hold no more than the limit.
      const slowest = Math.max(...allowed.map((a) => a.answered - a.asked));
      const shortened = windowMs - 2 * slowest;
      expect(shortened).toBeGreaterThan(windowMs / 2);
      const times = allowed.map((a) => a.asked).sort((a, b) => a - b);
      let from = 0;
      for (let to = 0; to < times.length; to += 1) {
        while ((times[to] ?? 0) - (times[from] ?? 0) >= shortened) from += 1;
        expect(to - from + 1).toBeLessThanOrEqual(limit);
      }
    });
  });

  it('leases nothing near the limit: many concurrent hits on one instance get exactly the limit', async () => {
    await withInstances(1, async ({ prefix, redis: [redis], limiters: [limiter] }) => {
      if (!limiter || !redis) throw new Error('no instance');
      const limit = 48;
      const decisions = await burst(limiter, 100, 'near', limit, 60_000);
      expect(decisions.filter((d) => d.allowed)).toHaveLength(limit);
      await sleep(LEASE_MS * 3);
      expect(await redis.zcard(`${prefix}near`)).toBe(limit);
      expect((await limiter.hit('near', limit, 60_000)).allowed).toBe(false);
    });
  });

  it('tells a client refused only because of another instance\'s leased slots to retry in 1 s, and lets it in once they go back', async () => {
    await withInstances(2, async ({ limiters: [a, b] }) => {
      if (!a || !b) throw new Error('no instance');
      const limit = 64;
      // A is busy: the second of its concurrent hits leases limit / 16 = 4 slots.
      const onA = await Promise.all([a.hit('k', limit, 60_000), a.hit('k', limit, 60_000)]);
      expect(onA.every((d) => d.allowed)).toBe(true);
      // B fills what is left of the window at once (one pipelined round trip, well within A's
      // lease), then asks once more while A's 4 leased slots are still out.
      const onB = await burst(b, limit - 2 - 4, 'k', limit, 60_000);
      expect(onB.every((d) => d.allowed)).toBe(true);
      const refused = await b.hit('k', limit, 60_000);
      // Without the lease the oldest entry would block for the whole 60 s window.
      expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      await sleep(LEASE_MS * 3);
      expect((await b.hit('k', limit, 60_000)).allowed).toBe(true);
    });
  });

  it('answers a version bump only after the leases read under the old version have ended', async () => {
    await withInstances(2, async ({ prefix, redis: [reader, writer], limiters: [limiter] }) => {
      if (!limiter || !reader || !writer) throw new Error('no instance');
      const logger = pino({ level: 'silent' });
      const versions = createRedisShopVersions(writer, logger);
      const shopId = `shp_${randomUUID().replaceAll('-', '')}`;
      const version = { key: shopVersionKey(shopId), ttlMs: 30_000, fenceKey: shopLeaseFenceKey(shopId) };
      try {
        const busy = await Promise.all(Array.from({ length: 10 }, () => limiter.hit(`${prefix}v`, 1600, 60_000, version)));
        const old = busy[0]?.version;
        expect(old).toBeDefined();
        // A leased answer carries the version its lease read.
        expect((await limiter.hit(`${prefix}v`, 1600, 60_000, version)).version).toBe(old);
        const asked = performance.now();
        expect(await versions.bump(shopId)).toBe(true);
        const waited = performance.now() - asked;
        const bumped = await writer.get(shopVersionKey(shopId));
        // The lease was still live when the bump was asked: the bump waited for its end.
        expect(waited).toBeGreaterThan(5);
        expect(waited).toBeLessThan(LEASE_MS * 10);
        // So the next request after the bump's answer reads the new version: no answer at once
        // comes from a lease of the old one.
        expect(limiter.hitNow?.(`${prefix}v`, 1600, 60_000, version)).toBeUndefined();
        expect((await limiter.hit(`${prefix}v`, 1600, 60_000, version)).version).toBe(bumped);
        // Without a live lease a bump does not wait.
        await sleep(LEASE_MS * 3);
        const quick = performance.now();
        await versions.bump(shopId);
        expect(performance.now() - quick).toBeLessThan(LEASE_MS);
      } finally {
        versions.close();
        await writer.del(shopVersionKey(shopId), shopLeaseFenceKey(shopId));
      }
    });
  });
});
