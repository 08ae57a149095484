/**
 * Authentication's key → shop cache (src/api-keys/key-cache.ts) never outlives a change:
 * revocation answers 401, a plan downgrade 403 (admin API or CLI) and a rules write the new
 * body at the key's next request, on this instance and (PostgreSQL) on a second instance
 * sharing the database — over a live Redis, a Redis Cluster, a dead Redis, one restarted with
 * its old data, and without Redis.
 */
import { sql } from 'drizzle-orm';
import { setImmediate as yieldToTimers, setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { openPostgres } from '../../src/db/database.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { createTestDatabase, testDbKind, testRedisUrl } from '../support/database.ts';
import { sparePort } from '../support/ports.ts';
import { createPrivateRedis, hasRedisServer } from '../support/private-redis.ts';
import type { PrivateRedis } from '../support/private-redis.ts';
import { startRedisCluster } from '../support/redis-cluster.ts';
import type { RedisCluster } from '../support/redis-cluster.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const rules = (t: TestApp, shop: TestShop) => t.api(shop, { method: 'GET', url: '/api/v1/rules' });

async function keyIdOf(t: TestApp, shop: TestShop): Promise<string> {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/api-keys` });
  const [key] = (res.json() as { apiKeys: Array<{ id: string }> }).apiKeys;
  if (!key) throw new Error('no key');
  return key.id;
}

/** The CLI run on the writer's database and Redis, as an operator would beside running servers. */
async function cliOn(t: TestApp, argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runCli(argv, {
    stdout: () => {},
    stderr: (text) => (stderr += text),
    env: {
      ...(t.config.redisUrl === undefined ? {} : { REDIS_URL: t.config.redisUrl }),
      ...(t.config.redisClusterNodes === undefined
        ? {}
        : { REDIS_CLUSTER_NODES: t.config.redisClusterNodes.map(({ host, port }) => `${host}:${port}`).join(',') }),
    },
    openDatabase: async () => ({ ...t.ctx.database, close: async () => {} }),
  });
  return { code, stderr };
}

/**
 * A Redis answer slower than REDIS_TIMEOUT_MS (250 ms) rightly bypasses the cache; on a loaded
 * test machine that would make the "served from memory" check flaky, so it gets more time.
 */
const SETTINGS = { RATE_LIMIT_SCALE: '100', REDIS_TIMEOUT_MS: '5000' };

/** Two instances (or one twice) started on one database with the same settings. */
async function startInstances(env: Record<string, string>): Promise<{ writer: TestApp; reader: TestApp; close(): Promise<void> }> {
  const settings = { ...SETTINGS, ...env };
  const database = await createTestDatabase();
  const writer = await createTestApp(settings, { database });
  if (testDbKind() !== 'postgres') return { writer, reader: writer, close: () => writer.close() };
  const reader = await createTestApp(settings, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
  return {
    writer,
    reader,
    async close() {
      await reader.close();
      await writer.close();
    },
  };
}

/** The checks, with `writer` making the changes and `reader` serving the key. */
function exactnessCases(instances: () => { writer: TestApp; reader: TestApp }) {
  it('serves a verified key from memory exactly while the shop\'s version is unchanged', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    // Twice: an answer the instance could not stamp with a version (a Redis reply slower than
    // the timeout on a loaded CI machine) is not cached; the second request caches it then.
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
    // Revoked behind the service's back (no version bump): only a cached key still passes.
    await writer.ctx.db.execute(sql`UPDATE api_keys SET revoked_at = now() WHERE shop_id = ${shop.id}`);
    expect((await rules(reader, shop)).statusCode).toBe(reader.ctx.apiKeys.caching && redisAnswers(reader) ? 200 : 401);
    await writer.ctx.shopVersions.bump(shop.id);
    expect((await rules(reader, shop)).statusCode).toBe(401);
  });


  it('answers 401 at the next request after the key is revoked', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    const other = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
    const revoked = await writer.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api-keys/${await keyIdOf(writer, shop)}` });
    expect(revoked.statusCode).toBe(200);
    const res = await rules(reader, shop);
    expect(res.statusCode).toBe(401);
    // Another shop's cached key is untouched.
    expect((await rules(reader, other)).statusCode).toBe(200);
  });

  it('answers 401 to every request started after a revocation, though the key was busy (limiter leases live)', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    const keyId = await keyIdOf(writer, shop);
    // Eight requests at a time on the reader: with Redis, its limiter answers most of them from
    // leased slots, carrying the version the lease read.
    let revokedAt = Number.POSITIVE_INFINITY;
    let stop = false;
    let answered = 0;
    const after: number[] = [];
    const busy = async () => {
      while (!stop) {
        const started = performance.now();
        const res = await rules(reader, shop);
        answered += 1;
        if (started > revokedAt) after.push(res.statusCode);
        // An answer from memory may need no I/O at all: let the others' callbacks run.
        await yieldToTimers();
      }
    };
    // Counted, not timed (a loaded machine answers fewer per 100 ms): the loops are busy before
    // the revocation, and enough requests start after it.
    const until = async (done: () => boolean) => {
      while (!done()) await sleep(5);
    };
    const loops = Array.from({ length: 8 }, () => busy());
    await until(() => answered >= 32);
    const revoked = await writer.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api-keys/${keyId}` });
    revokedAt = performance.now();
    expect(revoked.statusCode).toBe(200);
    await until(() => after.length >= 32);
    stop = true;
    await Promise.all(loops);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((status) => status !== 401)).toEqual([]);
  });

  it('answers 403 at the next request after a downgrade, and 200 again after the upgrade', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    const patch = (plan: string) => writer.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan } });
    expect((await patch('growth')).statusCode).toBe(200);
    const denied = await rules(reader, shop);
    expect(denied.statusCode).toBe(403);
    expect((await patch('scale')).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
  });

  it('answers 403 at the next request after a CLI plan change, and 401 after a CLI revocation', async () => {
    const { writer, reader } = instances();
    // On PGlite the CLI cannot open the data directory while a server runs: nothing to test.
    if (reader.ctx.shopVersions.mode === 'local') return;
    const shop = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await cliOn(writer, ['shop:plan', shop.id, 'growth'])).code).toBe(0);
    expect((await rules(reader, shop)).statusCode).toBe(403);
    expect((await cliOn(writer, ['shop:plan', shop.id, 'scale'])).code).toBe(0);
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await cliOn(writer, ['key:revoke', shop.id, await keyIdOf(writer, shop)])).code).toBe(0);
    expect((await rules(reader, shop)).statusCode).toBe(401);
  });

  it('serves a rules write at the next request though the key was cached before it', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    const before = await rules(reader, shop);
    expect(before.json().rules).toEqual([]);
    await importCampaigns(writer, shop, [campaign('Live', { enabled: true, isDraft: false, rules: [rule('now')] })]);
    const after = await rules(reader, shop);
    expect(after.statusCode).toBe(200);
    expect(after.json().rules.map((r: { name: string }) => r.name)).toEqual(['now']);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('never lets one shop\'s key read another shop', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    const other = await writer.createShop('scale');
    await importCampaigns(writer, other, [campaign('Theirs', { enabled: true, isDraft: false, rules: [rule('theirs')] })]);
    expect((await rules(reader, other)).json().rules).toHaveLength(1);
    expect((await rules(reader, shop)).json().rules).toEqual([]);
    // A key of the right shape with a wrong secret is not served from the cache.
    const forged = `${shop.key.slice(0, -4)}AAAA`;
    expect((await reader.api(forged, { method: 'GET', url: '/api/v1/rules' })).statusCode).toBe(401);
  });
}

/** Whether the instance's Redis is up, so the version can be read (else the cache is bypassed). */
const redisAnswers = (t: TestApp): boolean => t.ctx.redis === undefined || t.ctx.redis.status === 'ready';

const expectedMode = () => (testRedisUrl() !== undefined ? 'redis' : testDbKind() === 'postgres' ? 'off' : 'local');

describe('API key cache, one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(SETTINGS);
  });
  afterAll(() => t.close());

  it('caches wherever a shared version is read synchronously: in process (PGlite) or from Redis', () => {
    expect(t.ctx.shopVersions.mode).toBe(expectedMode());
    expect(t.ctx.apiKeys.caching).toBe(expectedMode() !== 'off');
  });
  exactnessCases(() => ({ writer: t, reader: t }));
});

const transports = [
  ...(testRedisUrl() === undefined ? [] : [{ name: 'Redis', env: {} as Record<string, string>, cluster: false }]),
  // A cluster of the file's own; the CLI bumps versions on it too (cliOn).
  ...(hasRedisServer ? [{ name: 'a Redis Cluster', env: { REDIS_URL: '' } as Record<string, string>, cluster: true }] : []),
  { name: 'PostgreSQL alone (LISTEN/NOTIFY, no cache)', env: { REDIS_URL: '' } as Record<string, string>, cluster: false },
];

describe.skipIf(testDbKind() !== 'postgres').each(transports)('API key cache, two instances over $name', ({ env, cluster: onCluster }) => {
  let cluster: RedisCluster | undefined;
  let instances: Awaited<ReturnType<typeof startInstances>>;
  beforeAll(async () => {
    if (onCluster) cluster = await startRedisCluster();
    instances = await startInstances({ ...env, ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : {}) });
    expect(instances.reader.ctx.redis?.isCluster === true).toBe(onCluster);
  });
  afterAll(async () => {
    await instances?.close();
    cluster?.remove();
  });
  exactnessCases(() => instances);
  it.skipIf(!onCluster)('had no cluster node answer CROSSSLOT', () => {
    expect(cluster?.errorCounts().CROSSSLOT ?? 0).toBe(0);
  });
});

describe('API key cache with an unreachable Redis: never served from memory', () => {
  let instances: Awaited<ReturnType<typeof startInstances>>;
  beforeAll(async () => {
    instances = await startInstances({ REDIS_URL: `redis://127.0.0.1:${await sparePort()}` });
  });
  afterAll(() => instances.close());

  it('uses the Redis versions, which never answer', () => {
    expect(instances.reader.ctx.shopVersions.mode).toBe('redis');
    expect(redisAnswers(instances.reader)).toBe(false);
  });
  exactnessCases(() => instances);
});

describe.skipIf(!hasRedisServer)('API key cache across a Redis restart that kept its old data', () => {
  let redis: PrivateRedis;
  let instances: Awaited<ReturnType<typeof startInstances>>;
  beforeAll(async () => {
    redis = await createPrivateRedis();
    await redis.start();
    instances = await startInstances({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await instances.close();
    redis.remove();
  });

  const waitReady = async (t: TestApp) => {
    for (let i = 0; i < 100 && t.ctx.redis?.status !== 'ready'; i += 1) await sleep(50);
    expect(t.ctx.redis?.status).toBe('ready');
  };

  it('answers 401 after a revocation made while Redis was down, though Redis came back with the old version', async () => {
    const { writer, reader } = instances;
    await waitReady(reader);
    const shop = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
    // The saved data set still holds the version the reader's entry is stamped with.
    redis.stop('save');
    for (let i = 0; i < 100 && writer.ctx.redis?.status === 'ready'; i += 1) await sleep(20);
    const revoked = await writer.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api-keys/${await keyIdOf(writer, shop)}` });
    expect(revoked.statusCode).toBe(200);
    await redis.start();
    await waitReady(reader);
    await waitReady(writer);
    expect(redis.cli('--scan', '--pattern', 'gcrs:shop-version:*')).toContain(shop.id);
    expect((await rules(reader, shop)).statusCode).toBe(401);
  }, 30_000);
});
