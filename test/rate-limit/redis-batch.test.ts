/**
 * The limiter's hits of one event-loop turn go as one script call (src/rate-limit/redis-batch.ts),
 * against real Redis. Runs when TEST_REDIS_URL is set.
 *
 * - Several hits of one key and of other keys, sent together, answer exactly as the same hits
 *   sent one by one, and go in one script call (the old code made one call per hit).
 * - An error reply or a Redis outage fails every hit of the batch, as it fails a single hit.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { CountedDecision, VersionRead } from '../../src/rate-limit/limiter.ts';
import { hashTag, MAX_BATCH_HITS } from '../../src/rate-limit/redis-batch.ts';
import { createRedisRateLimiter } from '../../src/rate-limit/redis.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** `redis` with its script calls counted (EVALSHA; a NOSCRIPT fallback's EVAL is the same call). */
function counted(redis: Redis): { redis: Redis; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(redis, {
    get: (target, property, receiver) => {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'evalsha' && typeof value === 'function') {
        return (...args: unknown[]) => {
          calls += 1;
          return Reflect.apply(value, target, args);
        };
      }
      return value;
    },
  });
  return { redis: proxy, calls: () => calls };
}

type Hit = { key: string; limit: number; version?: boolean };

// Three hits over a limit of 2 on one key, the rest spread over two keys of another shop and a
// key of a third, some reading their shop's version (seeded once, by the first of them).
const hits: Hit[] = [
  { key: '{shp_a}:key_1', limit: 2, version: true },
  { key: '{shp_b}:key_1', limit: 3 },
  { key: '{shp_a}:key_1', limit: 2, version: true },
  { key: '{shp_a}:key_1', limit: 2, version: true },
  { key: '{shp_b}:key_2', limit: 1 },
  { key: '{shp_b}:key_1', limit: 3 },
  { key: '{shp_b}:key_2', limit: 1 },
  { key: '{shp_c}:key_1', limit: 5, version: true },
  { key: '{shp_a}:key_1', limit: 2, version: true },
];

const versionOf = (prefix: string, key: string): VersionRead => {
  const tag = hashTag(key) ?? key;
  return { key: `${prefix}{${tag}}:version`, ttlMs: 30_000, fenceKey: `${prefix}{${tag}}:fence` };
};

/** The decisions without their version token (a random seed, compared on its own). */
const plain = (decisions: CountedDecision[]) => decisions.map(({ version: _, ...decision }) => decision);

describe.skipIf(!redisUrl)('redis rate limiter: hits of one turn in one call', { retry: 2 }, () => {
  const url = redisUrl ?? '';

  it('answers several hits of one key and of other keys, sent together, exactly as sent one by one, in two calls', async () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    const prefix = `test:rate-limit-batch:${process.pid}:${randomUUID()}:`;
    try {
      const one = `${prefix}one:`;
      const batch = `${prefix}batch:`;
      const sequential = counted(redis);
      const alone = createRedisRateLimiter(sequential.redis, { prefix: one });
      const inSequence: CountedDecision[] = [];
      for (const { key, limit, version } of hits) {
        inSequence.push(await alone.hit(key, limit, 10_000, version ? versionOf(one, key) : undefined));
      }
      expect(sequential.calls()).toBe(hits.length);

      const together = counted(redis);
      const batched = createRedisRateLimiter(together.redis, { prefix: batch });
      const inBatch = await Promise.all(hits.map(({ key, limit, version }) => batched.hit(key, limit, 10_000, version ? versionOf(batch, key) : undefined)));
      // The first turn sends each key's first hit and, that key being busy, its second, which
      // asks for a lease (lease.ts); a key's further hits wait for that answer and go together
      // in the next turn. One by one, each hit was a call of its own.
      expect(together.calls()).toBe(2);

      expect(plain(inBatch)).toEqual(plain(inSequence));
      expect(inBatch.map((d) => d.allowed)).toEqual([true, true, true, false, true, true, false, true, false]);
      // One version per shop, seeded by its first hit and read by the others of the batch.
      const shopA = inBatch.filter((_, i) => hits[i]?.key === '{shp_a}:key_1').map((d) => d.version);
      expect(new Set(shopA).size).toBe(1);
      expect(shopA[0]).toBe(await redis.get(`${batch}{shp_a}:version`));
      // The windows hold what the sequential hits left, entry for entry.
      for (const key of new Set(hits.map((h) => h.key))) {
        expect(await redis.zcard(`${batch}${key}`)).toBe(await redis.zcard(`${one}${key}`));
      }
      await Promise.all([alone.close(), batched.close()]);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it(`splits a turn of more than ${MAX_BATCH_HITS} hits into calls of at most ${MAX_BATCH_HITS}, and still allows exactly the limit`, async () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    const prefix = `test:rate-limit-batch:${process.pid}:${randomUUID()}:`;
    try {
      const { redis: proxy, calls } = counted(redis);
      const limiter = createRedisRateLimiter(proxy, { prefix });
      const decisions = await Promise.all(Array.from({ length: 150 }, () => limiter.hit('{shp_a}:key_1', 20, 10_000)));
      // The first two in one call (the second asks for a lease); the 148 that waited for its
      // answer in calls of 64, 64 and 20.
      expect(calls()).toBe(4);
      expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
      // The first 20 hits in order were the allowed ones, as they would be one by one.
      expect(decisions.slice(0, 20).every((d) => d.allowed)).toBe(true);
      expect(await redis.zcard(`${prefix}{shp_a}:key_1`)).toBe(20);
      await limiter.close();
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('fails every hit of the batch with the error of its call', async () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    const prefix = `test:rate-limit-batch:${process.pid}:${randomUUID()}:`;
    try {
      const broken = new Proxy(redis, {
        get: (target, property, receiver) =>
          property === 'evalsha'
            ? async () => {
                throw new Error('READONLY You can not write against a read only replica.');
              }
            : Reflect.get(target, property, receiver),
      });
      const limiter = createRedisRateLimiter(broken, { prefix });
      const results = await Promise.allSettled(hits.map(({ key, limit }) => limiter.hit(key, limit, 10_000)));
      expect(results.map((r) => r.status)).toEqual(hits.map(() => 'rejected'));
      for (const result of results) expect(String(result.status === 'rejected' && result.reason)).toMatch(/READONLY/);
      await limiter.close();
    } finally {
      await redis.quit();
    }
  });

  it('fails every hit of the batch at once while Redis is unreachable, and decides again once it is back', async () => {
    // As the service connects (redis/connection.ts): no offline queue, no retry per command.
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const prefix = `test:rate-limit-batch:${process.pid}:${randomUUID()}:`;
    try {
      await new Promise((resolve) => redis.once('ready', resolve));
      const limiter = createRedisRateLimiter(redis, { prefix });
      const ended = new Promise((resolve) => redis.once('end', resolve));
      redis.disconnect(false);
      await ended;
      const results = await Promise.allSettled(hits.map(({ key, limit }) => limiter.hit(key, limit, 10_000)));
      expect(results.map((r) => r.status)).toEqual(hits.map(() => 'rejected'));
      redis.connect().catch(() => {});
      await new Promise((resolve) => redis.once('ready', resolve));
      const again = await Promise.all(hits.map(({ key, limit }) => limiter.hit(key, limit, 10_000)));
      expect(again.map((d) => d.allowed)).toEqual([true, true, true, false, true, true, false, true, false]);
      await limiter.close();
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
