/**
 * Two app instances on ONE PostgreSQL database (and one Redis, when the project has it): a
 * write on the first is never followed by a stale GET /rules on the second, even while the
 * second has reads in flight that started before the write. PostgreSQL project only; the
 * embedded database admits a single process. Also on a Redis Cluster of the file's own
 * (test/support/redis-cluster.ts, REDIS_CLUSTER_NODES), where no node may answer CROSSSLOT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/database.ts';
import { DEFAULT_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { createTestDatabase, testDbKind, testRedisUrl } from '../support/database.ts';
import { hasRedisServer } from '../support/private-redis.ts';
import { startRedisCluster } from '../support/redis-cluster.ts';
import type { RedisCluster } from '../support/redis-cluster.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { readCampaign } from './helpers.ts';

type Payload = { rules: Array<{ name: string }>; widgets: { toast: { message: string } } };

const transports = [
  ...(testRedisUrl() === undefined ? [] : [{ name: 'Redis pub/sub', env: {} as Record<string, string>, cluster: false }]),
  ...(hasRedisServer ? [{ name: 'Redis Cluster pub/sub', env: { REDIS_URL: '' } as Record<string, string>, cluster: true }] : []),
  { name: 'LISTEN/NOTIFY', env: { REDIS_URL: '' } as Record<string, string>, cluster: false },
];

describe.skipIf(testDbKind() !== 'postgres').each(transports)('two instances, invalidation over $name', ({ env, cluster: onCluster }) => {
  let cluster: RedisCluster | undefined;
  let first: TestApp;
  let second: TestApp;
  let shop: TestShop;
  let campaignId: string;

  beforeAll(async () => {
    if (onCluster) cluster = await startRedisCluster();
    const database = await createTestDatabase();
    // Generous limits: this file sends far more than 120 requests a minute with one key.
    const settings = { RATE_LIMIT_SCALE: '100', ...env, ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : {}) };
    first = await createTestApp(settings, { database });
    second = await createTestApp(settings, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
    expect(second.ctx.invalidation.kind).toBe(first.ctx.invalidation.kind);
    // The cluster variant runs on the cluster, not on the LISTEN/NOTIFY fallback.
    for (const t of [first, second]) expect(t.ctx.redis?.isCluster === true).toBe(onCluster);
    shop = await first.createShop('scale');
    const res = await first.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      payload: { campaigns: [campaign('Promo', { enabled: true, isDraft: false, rules: [rule('r0')] })] },
    });
    campaignId = (res.json() as { campaignIds: string[] }).campaignIds[0] as string;
  });
  afterAll(async () => {
    // The second instance first: closing the first drops the shared database.
    await second?.close();
    await first?.close();
    cluster?.remove();
  });

  const readOnSecond = async (): Promise<Payload> => {
    const res = await second.api(shop, { method: 'GET', url: '/api/v1/rules' });
    expect(res.statusCode).toBe(200);
    return res.json() as Payload;
  };

  async function renameRule(app: TestApp, name: string) {
    const current = await readCampaign(app, shop, campaignId);
    const rules = current.rules.map(({ id, enabled, conditionTree, giftConfig, options }) => ({ id, name, enabled, conditionTree, giftConfig, options }));
    const res = await app.api(shop, {
      method: 'PUT',
      url: `/api/v1/campaigns/${campaignId}`,
      payload: { name: current.name, enabled: true, isDraft: false, startAt: null, endAt: null, rules },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function setToast(app: TestApp, message: string) {
    const widgets = { ...DEFAULT_WIDGET_DOCUMENT, toast: { ...DEFAULT_WIDGET_DOCUMENT.toast, message } };
    const res = await app.api(shop, { method: 'PUT', url: '/api/v1/widgets', payload: widgets });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('never serves a stale payload on the second instance after a write on the first', async () => {
    await readOnSecond();
    for (let round = 1; round <= 12; round += 1) {
      // Reads on the second instance that race with the write: they may load the old
      // snapshot and finish after it, and must not poison what comes next.
      const racing = Array.from({ length: 3 }, () => readOnSecond());
      if (round % 2 === 0) await setToast(first, `toast ${round}`);
      else await renameRule(first, `rule ${round}`);
      const after = await readOnSecond();
      if (round % 2 === 0) expect(after.widgets.toast.message).toBe(`toast ${round}`);
      else expect(after.rules.map((r) => r.name)).toEqual([`rule ${round}`]);
      await Promise.all(racing);
      // And again once the racing reads have settled and cached whatever they saw.
      const settled = await readOnSecond();
      expect(settled).toEqual(after);
    }
  });

  it('answers 304 on the second instance only for the current version', async () => {
    const etag = (await second.api(shop, { method: 'GET', url: '/api/v1/rules' })).headers.etag as string;
    expect((await second.api(shop, { method: 'GET', url: '/api/v1/rules', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await setToast(first, 'changed elsewhere');
    const res = await second.api(shop, { method: 'GET', url: '/api/v1/rules', headers: { 'if-none-match': etag } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Payload).widgets.toast.message).toBe('changed elsewhere');
  });

  it("evicts the second instance's entry when the first one writes", async () => {
    await readOnSecond();
    expect(second.ctx.rulesCache.cachedVersion(shop.id)).toBeDefined();
    await setToast(first, 'evict me');
    const deadline = Date.now() + 5000;
    while (second.ctx.rulesCache.cachedVersion(shop.id) !== undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(second.ctx.rulesCache.cachedVersion(shop.id)).toBeUndefined();
  });

  it.skipIf(!onCluster)('had no cluster node answer CROSSSLOT', () => {
    expect(cluster?.errorCounts().CROSSSLOT ?? 0).toBe(0);
  });
});
