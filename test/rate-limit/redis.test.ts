/**
 * The shared contract against real Redis, with four separate connections standing in for four
 * app instances. Runs when TEST_REDIS_URL is set (e.g. redis://127.0.0.1:6379).
 *
 * Every harness gets its own key prefix (pid + random id), so parallel test files and runs never
 * share a key, and disposal deletes only keys under that prefix.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisRateLimiter } from '../../src/rate-limit/redis.ts';
import { describeRateLimiterContract, realTimeHarness } from './contract.ts';
import type { LimiterHarness } from './contract.ts';

const redisUrl = process.env.TEST_REDIS_URL;


async function connect(url: string): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  await redis.ping();
  return redis;
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

interface RedisFixture {
  prefix: string;
  connections: readonly [Redis, ...Redis[]];
  dispose(): Promise<void>;
}

async function redisFixture(url: string): Promise<RedisFixture> {
  const prefix = `test:rate-limit:${process.pid}:${randomUUID()}:`;
  const first = await connect(url);
  const others = await Promise.all([connect(url), connect(url), connect(url)]);
  const connections: [Redis, ...Redis[]] = [first, ...others];
  return {
    prefix,
    connections,
    dispose: async () => {
      await deleteKeys(first, prefix);
      await Promise.all(connections.map((redis) => redis.quit()));
    },
  };
}

async function redisHarness(url: string): Promise<LimiterHarness> {
  const fixture = await redisFixture(url);
  const clients = fixture.connections.map((redis) => createRedisRateLimiter(redis, { prefix: fixture.prefix }));
  return realTimeHarness(clients, { key: (name) => name, dispose: () => fixture.dispose() });
}

// The scenarios run on Redis's real clock in 0.8 ms units: a machine busy enough to stall this
// process for a few hundred milliseconds between two steps makes a step late, not the limiter
// wrong. A retry absorbs such a stall; a real fault fails every attempt.
describe.skipIf(!redisUrl)('redis rate limiter', { retry: 2 }, () => {
  const url = redisUrl ?? '';

  describeRateLimiterContract('redis', () => redisHarness(url));

  it('keeps one sorted set per key, scored on the Redis clock, expiring with the window', async () => {
    const fixture = await redisFixture(url);
    try {
      const [redis] = fixture.connections;
      const limiter = createRedisRateLimiter(redis, { prefix: fixture.prefix });
      await Promise.all([limiter.hit('k', 5, 30_000), limiter.hit('k', 5, 30_000), limiter.hit('k', 5, 30_000)]);
      const [seconds, micros] = await redis.time();
      const redisNowUs = Number(seconds) * 1e6 + Number(micros);

      const key = `${fixture.prefix}k`;
      expect(await redis.type(key)).toBe('zset');
      const entries = await redis.zrange(key, 0, -1, 'WITHSCORES');
      const members = entries.filter((_, i) => i % 2 === 0);
      const scores = entries.filter((_, i) => i % 2 === 1).map(Number);
      expect(new Set(members).size).toBe(3);
      for (const score of scores) {
        expect(redisNowUs - score).toBeGreaterThanOrEqual(0);
        expect(redisNowUs - score).toBeLessThan(1_000_000);
      }
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(29_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    } finally {
      await fixture.dispose();
    }
  });

  it('reads the shop version in the same call, seeds it once when missing, and sees a bump at the next call', async () => {
    const fixture = await redisFixture(url);
    try {
      const [first, second] = fixture.connections;
      const versionKey = `${fixture.prefix}version`;
      const version = { key: versionKey, ttlMs: 30_000, fenceKey: `${fixture.prefix}fence` };
      const a = createRedisRateLimiter(first, { prefix: fixture.prefix });
      const b = createRedisRateLimiter(second ?? first, { prefix: fixture.prefix });
      expect(await a.hit('k', 5, 10_000)).not.toHaveProperty('version');
      expect(await first.exists(versionKey)).toBe(0);

      const seeded = (await a.hit('k', 5, 10_000, version)).version;
      expect(seeded).toMatch(/^[0-9a-f-]{36}$/);
      expect(await first.pttl(versionKey)).toBeGreaterThan(29_000);
      // Another instance reads the same token; seeding happens once.
      expect((await b.hit('k', 5, 10_000, version)).version).toBe(seeded);
      await first.set(versionKey, 'bumped');
      expect((await b.hit('k', 5, 10_000, version)).version).toBe('bumped');
      // A refused hit still carries the version.
      expect(await b.hit('k', 5, 10_000, version)).toMatchObject({ allowed: true, version: 'bumped' });
      expect(await b.hit('k', 5, 10_000, version)).toMatchObject({ allowed: false, version: 'bumped' });
    } finally {
      await fixture.dispose();
    }
  });

  it('falls back to EVAL when Redis does not have the script cached', async () => {
    const fixture = await redisFixture(url);
    try {
      const [redis] = fixture.connections;
      // Every EVALSHA answers NOSCRIPT, as after a Redis restart; the script cache is shared, so
      // the test does not flush it.
      const forgetful = new Proxy(redis, {
        get: (target, property, receiver) =>
          property === 'evalsha'
            ? async () => {
                throw new Error('NOSCRIPT No matching script. Please use EVAL.');
              }
            : Reflect.get(target, property, receiver),
      });
      const limiter = createRedisRateLimiter(forgetful, { prefix: fixture.prefix });
      expect(await limiter.hit('k', 1, 10_000)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.hit('k', 1, 10_000)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });

      const broken = new Proxy(redis, {
        get: (target, property, receiver) =>
          property === 'evalsha'
            ? async () => {
                throw new Error('READONLY You can not write against a read only replica.');
              }
            : Reflect.get(target, property, receiver),
      });
      await expect(createRedisRateLimiter(broken, { prefix: fixture.prefix }).hit('k', 1, 10_000)).rejects.toThrow(
        /READONLY/,
      );
    } finally {
      await fixture.dispose();
    }
  });

  it('leaves the connection open on close', async () => {
    const fixture = await redisFixture(url);
    try {
      const [redis] = fixture.connections;
      const limiter = createRedisRateLimiter(redis, { prefix: fixture.prefix });
      await limiter.close();
      await expect(limiter.hit('k', 1, 1000)).rejects.toThrow(/closed/);
      expect(await redis.ping()).toBe('PONG');
    } finally {
      await fixture.dispose();
    }
  });
});
