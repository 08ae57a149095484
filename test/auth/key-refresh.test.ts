/**
 * Renewals of the key cache's shop version tokens ahead of expiry (src/api-keys/key-refresh.ts),
 * on Redis and on a 3-master Redis Cluster: a used key's token is swapped for its successor
 * after its rows are read again; a bump during the read stops the swap; an idle key is not
 * renewed; a renewed token never lives longer than VERSION_TTL_MS after the read it vouches
 * for, also when another instance set it. Renewals are counted by the refresher's stats, and a
 * pass is run by the test (`refresh` with a lead of a whole token life), never waited for.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLY_SLACK_MS, successorOf } from '../../src/api-keys/key-refresh.ts';
import type { KeyRefreshStats } from '../../src/api-keys/key-refresh.ts';
import { shopVersionKey, VERSION_TTL_MS } from '../../src/cache/shop-versions.ts';
import { openPostgres } from '../../src/db/database.ts';
import { createTestDatabase, testDbKind, testRedisUrl } from '../support/database.ts';
import { hasRedisServer } from '../support/private-redis.ts';
import { startRedisCluster } from '../support/redis-cluster.ts';
import type { RedisCluster } from '../support/redis-cluster.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

/** A Redis answer slower than the timeout bypasses the cache; a loaded machine gets more time. */
const SETTINGS = { RATE_LIMIT_SCALE: '100', REDIS_TIMEOUT_MS: '5000' };
/** A pass with this lead renews every used entry, whenever its token expires. */
const EVERY_USED = { leadMs: VERSION_TTL_MS };

const rules = (t: TestApp, shop: TestShop | string) => t.api(shop, { method: 'GET', url: '/api/v1/rules' });

function refresherOf(t: TestApp) {
  const refresher = t.ctx.apiKeys.refresher;
  if (refresher === undefined) throw new Error('no refresher: the app has no Redis');
  return refresher;
}

function redisOf(t: TestApp) {
  const redis = t.ctx.redis;
  if (redis === undefined) throw new Error('no Redis');
  return redis;
}

const tokenOf = (t: TestApp, shop: TestShop) => redisOf(t).get(shopVersionKey(shop.id));

/** The stats' change over `run`. */
async function counted(t: TestApp, run: () => Promise<unknown>): Promise<KeyRefreshStats> {
  const before = refresherOf(t).stats();
  await run();
  const after = refresherOf(t).stats();
  return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - before[name as keyof KeyRefreshStats]])) as KeyRefreshStats;
}

/** A shop whose key is cached and served from memory since (a used entry). */
async function usedShop(t: TestApp, writer: TestApp = t): Promise<TestShop> {
  const shop = await writer.createShop('scale');
  for (let i = 0; i < 3; i += 1) expect((await rules(t, shop)).statusCode).toBe(200);
  return shop;
}

const revokeBehindTheService = (t: TestApp, shop: TestShop) => t.ctx.db.execute(sql`UPDATE api_keys SET revoked_at = now() WHERE shop_id = ${shop.id}`);

function refreshCases(app: () => TestApp) {
  it('swaps a used key\'s token for its successor and keeps serving it from memory', async () => {
    const t = app();
    const shop = await usedShop(t);
    const token = await tokenOf(t, shop);
    expect(token).toEqual(expect.any(String));
    const change = await counted(t, () => refresherOf(t).refresh(EVERY_USED));
    expect(change).toMatchObject({ renewals: 1, refused: 0, dropped: 0, failures: 0 });
    expect(await tokenOf(t, shop)).toBe(successorOf(token ?? ''));
    // Revoked without a bump: only an entry stamped with Redis's current token still passes.
    await revokeBehindTheService(t, shop);
    expect((await rules(t, shop)).statusCode).toBe(200);
    await t.ctx.shopVersions.bump(shop.id);
    expect((await rules(t, shop)).statusCode).toBe(401);
  });

  it('swaps a shop\'s token once for all its used keys, and serves each from memory after', async () => {
    const t = app();
    const shop = await usedShop(t);
    const created = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/api-keys`, payload: { name: 'second' } });
    expect(created.statusCode).toBe(201);
    const second = (created.json() as { key: string }).key;
    for (let i = 0; i < 3; i += 1) expect((await rules(t, second)).statusCode).toBe(200);
    // The second key was stamped with the shop's token after the first: one swap carries both.
    expect(await counted(t, () => refresherOf(t).refresh(EVERY_USED))).toMatchObject({ renewals: 1, reads: 2 });
    await revokeBehindTheService(t, shop);
    expect((await rules(t, shop)).statusCode).toBe(200);
    expect((await rules(t, second)).statusCode).toBe(200);
    // And both go with a bump (nothing of this shop is left for the next case's pass).
    await t.ctx.shopVersions.bump(shop.id);
    expect((await rules(t, shop)).statusCode).toBe(401);
    expect((await rules(t, second)).statusCode).toBe(401);
  });

  it('reads the key again before it swaps: a key revoked without a bump is dropped', async () => {
    const t = app();
    const shop = await usedShop(t);
    await revokeBehindTheService(t, shop);
    const change = await counted(t, () => refresherOf(t).refresh(EVERY_USED));
    expect(change).toMatchObject({ renewals: 1, dropped: 1 });
    expect((await rules(t, shop)).statusCode).toBe(401);
  });

  it('does not renew a key not served from memory since it was stamped', async () => {
    const t = app();
    const shop = await t.createShop('scale');
    // The first request reads the database and stamps the entry; nothing used it since.
    expect((await rules(t, shop)).statusCode).toBe(200);
    const token = await tokenOf(t, shop);
    expect(await counted(t, () => refresherOf(t).refresh(EVERY_USED))).toMatchObject({ renewals: 0, reads: 0 });
    expect(await tokenOf(t, shop)).toBe(token);
    // Once used, it is; and a renewed entry is idle again until its next use.
    expect((await rules(t, shop)).statusCode).toBe(200);
    expect(await counted(t, () => refresherOf(t).refresh(EVERY_USED))).toMatchObject({ renewals: 1 });
    expect(await counted(t, () => refresherOf(t).refresh(EVERY_USED))).toMatchObject({ renewals: 0, reads: 0 });
  });

  it('stops the renewal when the shop is bumped while its keys are read', async () => {
    const t = app();
    const shop = await usedShop(t);
    // The bump is sent before the pass's swap can be (the swap waits for the database read),
    // on the connection (or cluster node) the swap goes to.
    const pass = refresherOf(t).refresh(EVERY_USED);
    const before = refresherOf(t).stats();
    await t.ctx.shopVersions.bump(shop.id);
    const bumped = await tokenOf(t, shop);
    await pass;
    const after = refresherOf(t).stats();
    expect(after.refused - before.refused).toBe(1);
    expect(after.renewals - before.renewals).toBe(0);
    expect(await tokenOf(t, shop)).toBe(bumped);
    // The entry kept the old token: the next request reads the database.
    await revokeBehindTheService(t, shop);
    expect((await rules(t, shop)).statusCode).toBe(401);
  });

  it('never gives a renewed token more life than VERSION_TTL_MS from the read it vouches for', async () => {
    const t = app();
    const redis = redisOf(t);
    const shop = await usedShop(t);
    const token = (await tokenOf(t, shop)) ?? '';
    // Another instance's successor with far more life than the bound allows (as a buggy or
    // skewed renewal would leave it): taking it over shortens it.
    await redis.set(shopVersionKey(shop.id), successorOf(token), 'PX', 10 * VERSION_TTL_MS);
    expect(await counted(t, () => refresherOf(t).refresh(EVERY_USED))).toMatchObject({ adoptions: 1, renewals: 0 });
    const left = await redis.pttl(shopVersionKey(shop.id));
    expect(left).toBeGreaterThan(0);
    // VERSION_TTL_MS less the time since the read began and the reply's slack, at the most.
    expect(left).toBeLessThanOrEqual(VERSION_TTL_MS - REPLY_SLACK_MS);
    // Renewed again from there: a successor of the successor, within the same bound.
    expect((await rules(t, shop)).statusCode).toBe(200);
    expect(await counted(t, () => refresherOf(t).refresh(EVERY_USED))).toMatchObject({ renewals: 1 });
    expect(await tokenOf(t, shop)).toBe(successorOf(successorOf(token)));
    expect(await redis.pttl(shopVersionKey(shop.id))).toBeLessThanOrEqual(VERSION_TTL_MS - REPLY_SLACK_MS);
  });
}

const transports = [
  ...(testRedisUrl() === undefined ? [] : [{ name: 'Redis', cluster: false }]),
  ...(hasRedisServer && (testDbKind() === 'postgres' || !process.env.TEST_DATABASE_URL) ? [{ name: 'a Redis Cluster of three masters', cluster: true }] : []),
];

describe('key token renewals without Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...SETTINGS, REDIS_URL: '' });
  });
  afterAll(() => t?.close());

  it('has nothing to renew: embedded tokens never expire, and PostgreSQL alone caches no key', () => {
    expect(t.ctx.shopVersions.mode).not.toBe('redis');
    expect(t.ctx.apiKeys.refresher).toBeUndefined();
  });
});

describe.each(transports)('key token renewals on $name', ({ cluster: onCluster }) => {
  let cluster: RedisCluster | undefined;
  let t: TestApp;
  const env = () => (cluster === undefined ? SETTINGS : { ...SETTINGS, REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes });
  beforeAll(async () => {
    if (onCluster) cluster = await startRedisCluster();
    t = await createTestApp(env());
    expect(t.ctx.redis?.isCluster === true).toBe(onCluster);
  });
  afterAll(async () => {
    await t?.close();
    cluster?.remove();
  });

  refreshCases(() => t);

  describe.skipIf(testDbKind() !== 'postgres')('two instances on one database', () => {
    let second: TestApp;
    beforeAll(async () => {
      const database = await createTestDatabase();
      const first = await createTestApp(env(), { database });
      second = await createTestApp(env(), { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
      pair = [first, second];
    });
    let pair: [TestApp, TestApp];
    afterAll(async () => {
      await pair?.[1].close();
      await pair?.[0].close();
    });

    it('lets the second instance take over the successor the first set, after its own read', async () => {
      const [a, b] = pair;
      const shop = await usedShop(a);
      for (let i = 0; i < 3; i += 1) expect((await rules(b, shop)).statusCode).toBe(200);
      expect(await counted(a, () => refresherOf(a).refresh(EVERY_USED))).toMatchObject({ renewals: 1 });
      expect(await counted(b, () => refresherOf(b).refresh(EVERY_USED))).toMatchObject({ adoptions: 1, renewals: 0, refused: 0 });
      // Both serve the key from memory under the successor, and both see a bump.
      await revokeBehindTheService(a, shop);
      expect((await rules(a, shop)).statusCode).toBe(200);
      expect((await rules(b, shop)).statusCode).toBe(200);
      await a.ctx.shopVersions.bump(shop.id);
      expect((await rules(a, shop)).statusCode).toBe(401);
      expect((await rules(b, shop)).statusCode).toBe(401);
    });
  });

  it.skipIf(!onCluster)('had no cluster node answer CROSSSLOT', () => {
    expect(cluster?.errorCounts().CROSSSLOT ?? 0).toBe(0);
  });
});
