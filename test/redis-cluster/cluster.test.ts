/**
 * Issue 20 item 6: the service on a Redis Cluster of three masters (test/support/redis-cluster.ts).
 *
 * - The limiter's contract, on two cluster connections standing in for two instances.
 * - Two busy instances with leases, every call reading the shop's version and raising its lease
 *   fence (three keys in one script): exactly the limit is allowed.
 * - Two app instances on one PostgreSQL database and the cluster (REDIS_CLUSTER_NODES): API
 *   requests to both get exactly the limit, /healthz says Redis is up, a write on one is seen
 *   by the other at once and evicts its cached payload over the bus.
 * - No node ever answered CROSSSLOT (INFO errorstats of every node, after everything above).
 *
 * Runs once per run: in the postgres project when there is one (the app part needs a database
 * two instances share), else in the pglite project without the app part.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopLeaseFenceKey, shopVersionKey, VERSION_TTL_MS } from '../../src/cache/shop-versions.ts';
import { openPostgres } from '../../src/db/database.ts';
import { LEASE_MS } from '../../src/rate-limit/lease.ts';
import type { RateLimiter } from '../../src/rate-limit/limiter.ts';
import { RATE_LIMIT_POLICIES, rateLimitKey } from '../../src/rate-limit/policies.ts';
import { createRedisRateLimiter } from '../../src/rate-limit/redis.ts';
import { DEFAULT_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { describeRateLimiterContract, realTimeHarness } from '../rate-limit/contract.ts';
import type { LimiterHarness } from '../rate-limit/contract.ts';
import { createTestDatabase, testDbKind } from '../support/database.ts';
import { hasRedisServer } from '../support/private-redis.ts';
import { startRedisCluster } from '../support/redis-cluster.ts';
import type { RedisCluster } from '../support/redis-cluster.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const onPostgres = testDbKind() === 'postgres';
const runsHere = hasRedisServer && (onPostgres || !process.env.TEST_DATABASE_URL);


let cluster: RedisCluster;
const connections: Cluster[] = [];

/** A cluster connection of the test's own, ready; closed in afterAll. */
async function connect(): Promise<Cluster> {
  const [first] = cluster.ports;
  const redis = new Cluster([{ host: '127.0.0.1', port: first ?? 0 }], { redisOptions: { maxRetriesPerRequest: 1 } });
  connections.push(redis);
  await new Promise<void>((resolve, reject) => redis.once('ready', resolve).once('error', reject));
  return redis;
}

async function clusterHarness(): Promise<LimiterHarness> {
  const prefix = `test:cluster:${randomUUID()}:`;
  const clients = (await Promise.all([connect(), connect()])).map((redis) => createRedisRateLimiter(redis, { prefix }));
  return realTimeHarness(clients, {
    // Each key its own hash tag, as each shop's: the scenario's keys land on different nodes.
    key: (name) => `{shp_${randomUUID().replaceAll('-', '')}}:${name}`,
    dispose: async () => {},
  });
}

describe.skipIf(!runsHere)('on a Redis Cluster of three masters', () => {
  beforeAll(async () => {
    cluster = await startRedisCluster();
  });
  afterAll(async () => {
    await Promise.all(connections.map((redis) => redis.quit()));
    cluster?.remove();
  });

  // On Redis's real clock, as redis.test.ts: a retry absorbs a stall of a loaded machine.
  describe('the limiter', { retry: 2 }, () => {
    describeRateLimiterContract('redis cluster', clusterHarness);

    it('lets two busy instances with leases, reading the shop version, allow exactly the limit', async () => {
      const prefix = `test:cluster:${randomUUID()}:`;
      const [a, b] = await Promise.all([connect(), connect()]);
      if (!a || !b) throw new Error('no connection');
      const shopId = `shp_${randomUUID().replaceAll('-', '')}`;
      // What authentication passes for a cached API key (cache/shop-versions.ts versionRead).
      const version = { key: shopVersionKey(shopId), ttlMs: VERSION_TTL_MS, fenceKey: shopLeaseFenceKey(shopId) };
      const limiters = [a, b].map((redis) => createRedisRateLimiter(redis, { prefix }));
      const key = rateLimitKey(shopId, 'key_1', RATE_LIMIT_POLICIES.default);
      const limit = 400;
      let allowed = 0;
      let errors = 0;
      // Until the limit is reached (10 s at most, a loaded machine's margin over ~0.5 s), then
      // four lease lifetimes more: leased slots that go back unused are taken by then.
      let deadline = performance.now() + 10_000;
      const worker = async (limiter: RateLimiter) => {
        while (performance.now() < deadline) {
          try {
            const decision = await limiter.hit(key, limit, 60_000, version);
            if (decision.allowed) allowed += 1;
            if (allowed === limit) deadline = Math.min(deadline, performance.now() + LEASE_MS * 4);
            if (!decision.allowed) await sleep(1);
          } catch {
            errors += 1;
            await sleep(1);
          }
        }
      };
      await Promise.all(limiters.flatMap((limiter) => Array.from({ length: 8 }, () => worker(limiter))));
      await Promise.all(limiters.map((limiter) => limiter.close()));
      expect(errors).toBe(0);
      // Slots leased and not used went back; refused requests retried into them.
      expect(allowed).toBe(limit);
      await sleep(LEASE_MS * 3);
      expect(await a.zcard(`${prefix}${key}`)).toBe(limit);
      // The script ran on the shop's node, beside its version and lease fence.
      expect(await a.get(version.key)).toMatch(/^[0-9a-f-]{36}$/);
    });
    it('answers the hits of many shops sent at once, batched per slot, with exactly each shop\'s limit', async () => {
      const prefix = `test:cluster:${randomUUID()}:`;
      const [a, b] = await Promise.all([connect(), connect()]);
      if (!a || !b) throw new Error('no connection');
      const limiters = [a, b].map((redis) => createRedisRateLimiter(redis, { prefix }));
      // 40 shops' tags spread over the three masters; each instance sends 5 hits of every shop
      // in one turn, each reading the shop's version: 200 hits an instance, in calls per tag.
      const shops = Array.from({ length: 40 }, () => `shp_${randomUUID().replaceAll('-', '')}`);
      const limit = 3;
      const perShop = await Promise.all(
        shops.map(async (shopId) => {
          const version = { key: shopVersionKey(shopId), ttlMs: VERSION_TTL_MS, fenceKey: shopLeaseFenceKey(shopId) };
          const key = rateLimitKey(shopId, 'key_1', RATE_LIMIT_POLICIES.default);
          const decisions = await Promise.all(limiters.flatMap((limiter) => Array.from({ length: 5 }, () => limiter.hit(key, limit, 60_000, version))));
          return { allowed: decisions.filter((d) => d.allowed).length, versions: new Set(decisions.map((d) => d.version)).size, stored: await a.zcard(`${prefix}${key}`) };
        }),
      );
      await Promise.all(limiters.map((limiter) => limiter.close()));
      expect(perShop).toEqual(shops.map(() => ({ allowed: limit, versions: 1, stored: limit })));
    });
  });

  describe.skipIf(!onPostgres)('two app instances on one database', () => {
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      const database = await createTestDatabase();
      // The shared test Redis is switched off: the cluster is the only Redis of these apps.
      const env = { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes };
      first = await createTestApp(env, { database });
      second = await createTestApp(env, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
    });
    afterAll(async () => {
      // The second instance first: closing the first drops the shared database.
      await second?.close();
      await first?.close();
    });

    it('uses the cluster for limits, versions and the bus, and says "redis": "up" on /healthz', async () => {
      for (const t of [first, second]) {
        expect(t.ctx.redis?.isCluster).toBe(true);
        expect(t.ctx.invalidation.kind).toBe('redis');
        expect(t.ctx.shopVersions.mode).toBe('redis');
        const health = await t.app.inject({ method: 'GET', url: '/healthz' });
        expect(health.statusCode).toBe(200);
        expect(health.json()).toMatchObject({ ok: true, redis: 'up' });
      }
    });

    it('answers exactly 120 of 150 concurrent API requests of one key sent to both instances, the rest 429', async () => {
      const shop = await first.createShop('scale');
      const responses = await Promise.all(
        Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? first : second).api(shop, { method: 'GET', url: '/api/v1/campaigns' })),
      );
      const codes = responses.map((res) => res.statusCode);
      expect(codes.filter((code) => code === 200)).toHaveLength(120);
      expect(codes.filter((code) => code === 429)).toHaveLength(30);
      // Another shop's key has its own window, on its own slot.
      const other = await second.createShop('scale');
      expect((await first.api(other, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
    });

    it('shows a write on one instance at the next read on the other, and evicts the other\'s cached payload', async () => {
      const shop: TestShop = await first.createShop('scale');
      const read = async (t: TestApp) => {
        const res = await t.api(shop, { method: 'GET', url: '/api/v1/rules' });
        expect(res.statusCode).toBe(200);
        return res.json() as { widgets: { toast: { message: string } } };
      };
      const setToast = async (t: TestApp, message: string) => {
        const widgets = { ...DEFAULT_WIDGET_DOCUMENT, toast: { ...DEFAULT_WIDGET_DOCUMENT.toast, message } };
        const res = await t.api(shop, { method: 'PUT', url: '/api/v1/widgets', payload: widgets });
        expect(res.statusCode, res.body).toBe(200);
      };
      for (let round = 1; round <= 4; round += 1) {
        await read(second);
        expect(second.ctx.rulesCache.cachedVersion(shop.id)).toBeDefined();
        await setToast(first, `toast ${round}`);
        // The bus drops the second instance's entry (asynchronously, best effort)...
        const deadline = Date.now() + 5000;
        while (second.ctx.rulesCache.cachedVersion(shop.id) !== undefined && Date.now() < deadline) await sleep(10);
        expect(second.ctx.rulesCache.cachedVersion(shop.id)).toBeUndefined();
        // ...and the next read there has the write.
        expect((await read(second)).widgets.toast.message).toBe(`toast ${round}`);
      }
    });

    it('says "redis": "down" on /healthz while one master is stopped, still answers the API, and "up" once it is back', async () => {
      // Counted now: a restarted node starts its error counts from zero.
      expect(cluster.errorCounts().CROSSSLOT ?? 0).toBe(0);
      const shops = await Promise.all(Array.from({ length: 6 }, () => first.createShop('scale')));
      const health = async () => {
        const res = await first.app.inject({ method: 'GET', url: '/healthz' });
        expect(res.statusCode).toBe(200);
        return (res.json() as { redis?: string }).redis;
      };
      expect(await health()).toBe('up');
      const [stopped = 0] = cluster.ports;
      cluster.stopNode(stopped);
      try {
        expect(await health()).toBe('down');
        // Shops on the stopped master's slots fall back to this instance's window; the others
        // stay on the cluster. Every call is answered.
        for (const shop of shops) expect((await first.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
      } finally {
        await cluster.startNode(stopped);
      }
      // ioredis finds the master again at its next look at the topology: 15 s is a loaded
      // machine's margin over the refresh interval.
      const deadline = Date.now() + 15_000;
      while ((await health()) !== 'up' && Date.now() < deadline) await sleep(100);
      expect(await health()).toBe('up');
    });
  });

  it('had no node answer CROSSSLOT', () => {
    const counts = cluster.errorCounts();
    expect(counts.CROSSSLOT ?? 0).toBe(0);
  });
});
