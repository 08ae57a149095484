/**
 * Concurrent writes of one shop, each checked by exact final counts. These only mean something
 * on PostgreSQL: PGlite runs one transaction at a time, so there nothing ever overlaps and a
 * missing shop lock could not make them fail. They are the tests that catch a unit of work
 * taking its lock too late (docs/consistency.md says how to check that they do).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_ENDPOINTS_PER_SHOP } from '../../src/webhooks/schemas.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const onPostgres = testDbKind() === 'postgres';

// More requests than the test database's pool has connections: some queue for a connection,
// the rest overlap inside PostgreSQL.
const RACERS = 8;

describe.skipIf(!onPostgres)(`${POSTGRES_ONLY}concurrent writes of one shop`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const shopUrl = (shop: TestShop, path = '') => `/admin/v1/shops/${shop.id}${path}`;
  const race = (count: number, request: (i: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: count }, (_, i) => request(i)));
  const statuses = (results: LightMyRequestResponse[]) => results.map((r) => r.statusCode).sort((a, b) => a - b);
  const patch = async (shop: TestShop, payload: object) => {
    const res = await t.admin({ method: 'PATCH', url: shopUrl(shop), payload });
    expect(res.statusCode).toBe(200);
  };
  const importDrafts = async (shop: TestShop, count: number, rules: unknown[] = []) => {
    const res = await t.admin({
      method: 'POST',
      url: shopUrl(shop, '/campaigns/import'),
      payload: { campaigns: Array.from({ length: count }, (_, i) => campaign(`draft ${i}`, { rules })) },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { campaignIds: string[] }).campaignIds;
  };
  const campaigns = async (shop: TestShop) => {
    const res = await t.admin({ method: 'GET', url: shopUrl(shop, '/campaigns?perPage=100') });
    return res.json() as { campaigns: Array<{ id: string; enabled: boolean; isDraft: boolean; rulesCount: number }>; meta: { total: number } };
  };
  const ruleTotal = async (shop: TestShop) => (await campaigns(shop)).campaigns.reduce((sum, c) => sum + c.rulesCount, 0);

  it('imports at the campaign cap: exactly the cap is created, the rest get 403', async () => {
    const shop = await t.createShop('free'); // 3 campaigns
    const results = await race(RACERS, (i) =>
      t.admin({ method: 'POST', url: shopUrl(shop, '/campaigns/import'), payload: { campaigns: [campaign(`c${i}`, { rules: [] })] } }),
    );
    expect(statuses(results)).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
    expect((await campaigns(shop)).meta.total).toBe(3);
  });

  it('imports at the rule cap: exactly the rules that fit are created', async () => {
    const shop = await t.createShop('free');
    await patch(shop, { limits: { campaigns: 100, rules: 10 } });
    const results = await race(RACERS, (i) =>
      t.admin({
        method: 'POST',
        url: shopUrl(shop, '/campaigns/import'),
        payload: { campaigns: [campaign(`c${i}`, { rules: [rule('a'), rule('b'), rule('c')] })] },
      }),
    );
    // 3 imports of 3 rules fit under 10; a fourth would make 12.
    expect(statuses(results)).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
    expect(await ruleTotal(shop)).toBe(9);
    expect((await campaigns(shop)).meta.total).toBe(3);
  });

  it('enables at the active cap: exactly the cap goes live', async () => {
    const shop = await t.createShop('free');
    await patch(shop, { limits: { campaigns: RACERS, activeCampaigns: 2 } });
    const ids = await importDrafts(shop, RACERS);
    const results = await race(RACERS, (i) =>
      t.admin({ method: 'POST', url: shopUrl(shop, `/campaigns/${ids[i]}/enable?force=1`) }),
    );
    expect(statuses(results)).toEqual([200, 200, 403, 403, 403, 403, 403, 403]);
    const live = (await campaigns(shop)).campaigns.filter((c) => c.enabled && !c.isDraft);
    expect(live).toHaveLength(2);
  });

  it('PUTs of different campaigns at the rule cap: exactly the rules that fit are stored', async () => {
    const shop = await t.createShop('free');
    await patch(shop, { limits: { campaigns: RACERS, rules: 10 } });
    const ids = await importDrafts(shop, RACERS);
    const results = await race(RACERS, (i) =>
      t.admin({
        method: 'PUT',
        url: shopUrl(shop, `/campaigns/${ids[i]}`),
        payload: campaign(`put ${i}`, { rules: [rule('a'), rule('b'), rule('c'), rule('d')] }),
      }),
    );
    // 2 PUTs of 4 rules fit under 10; a third would make 12.
    expect(statuses(results)).toEqual([200, 200, 403, 403, 403, 403, 403, 403]);
    expect(await ruleTotal(shop)).toBe(8);
  });

  it('PUTs making different campaigns live at the active cap: exactly the cap goes live', async () => {
    const shop = await t.createShop('free');
    await patch(shop, { limits: { campaigns: RACERS, activeCampaigns: 3 } });
    const ids = await importDrafts(shop, RACERS);
    const results = await race(RACERS, (i) =>
      t.admin({
        method: 'PUT',
        url: shopUrl(shop, `/campaigns/${ids[i]}`),
        payload: campaign(`live ${i}`, { enabled: true, isDraft: false, rules: [] }),
      }),
    );
    expect(statuses(results)).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
    expect((await campaigns(shop)).campaigns.filter((c) => c.enabled && !c.isDraft)).toHaveLength(3);
  });

  it('PUTs of one campaign: the stored campaign is exactly one PUT, whole', async () => {
    const shop = await t.createShop('scale');
    const [id] = await importDrafts(shop, 1, [rule('original')]);
    const results = await race(RACERS, (i) =>
      t.admin({
        method: 'PUT',
        url: shopUrl(shop, `/campaigns/${id}`),
        payload: campaign(`put ${i}`, { rules: [rule(`put ${i} a`), rule(`put ${i} b`)] }),
      }),
    );
    expect(statuses(results)).toEqual(Array(RACERS).fill(200));
    const stored = (await t.admin({ method: 'GET', url: shopUrl(shop, `/campaigns/${id}`) })).json() as {
      campaign: { name: string; rules: Array<{ name: string }> };
    };
    const { name } = stored.campaign;
    expect(stored.campaign.rules.map((r) => r.name)).toEqual([`${name} a`, `${name} b`]);
  });

  it('PATCHes of different limits and settings keys: every key survives', async () => {
    const shop = await t.createShop('growth');
    const patches: object[] = [
      { limits: { campaigns: 7 } },
      { limits: { rules: 70 } },
      { limits: { activeCampaigns: 4 } },
      { settings: { engine: { evaluationDelay: 250 } } },
      { settings: { engine: { useDiscountedPrices: true } } },
      { settings: { checkout: { blockZeroValueCart: true } } },
      { settings: { data: { collectCartTokens: false } } },
      { settings: { lowStockThreshold: 9 } },
    ];
    const results = await race(patches.length, (i) => t.admin({ method: 'PATCH', url: shopUrl(shop, ''), payload: patches[i] as object }));
    expect(statuses(results)).toEqual(Array(patches.length).fill(200));
    const stored = (await t.admin({ method: 'GET', url: shopUrl(shop) })).json() as {
      shop: { limitOverrides: object; settings: { engine: object; checkout: object; data: object; lowStockThreshold: number } };
    };
    expect(stored.shop.limitOverrides).toEqual({ campaigns: 7, rules: 70, activeCampaigns: 4 });
    expect(stored.shop.settings.engine).toMatchObject({ evaluationDelay: 250, useDiscountedPrices: true });
    expect(stored.shop.settings.checkout).toMatchObject({ blockZeroValueCart: true });
    expect(stored.shop.settings.data).toEqual({ collectCartTokens: false });
    expect(stored.shop.settings.lowStockThreshold).toBe(9);
  });

  it('webhook endpoint creates at the cap: exactly the cap exists, the rest get 409; another shop is unaffected', async () => {
    const shop = await t.createShop('free');
    const other = await t.createShop('free');
    const create = (target: TestShop, i: number) =>
      t.admin({ method: 'POST', url: shopUrl(target, '/webhook-endpoints'), payload: { url: `https://hooks.example.com/${i}` } });
    for (let i = 0; i < MAX_ENDPOINTS_PER_SHOP - 3; i += 1) expect((await create(shop, i)).statusCode).toBe(201);
    const [mine, theirs] = await Promise.all([race(RACERS, (i) => create(shop, 100 + i)), race(3, (i) => create(other, i))]);
    expect(statuses(mine)).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(statuses(theirs)).toEqual([201, 201, 201]);
    const listed = async (target: TestShop) =>
      ((await t.admin({ method: 'GET', url: shopUrl(target, '/webhook-endpoints') })).json() as { endpoints: unknown[] }).endpoints;
    expect(await listed(shop)).toHaveLength(MAX_ENDPOINTS_PER_SHOP);
    expect(await listed(other)).toHaveLength(3);
  });

  it('one shop at its cap never blocks or counts against another shop', async () => {
    const [a, b] = [await t.createShop('free'), await t.createShop('free')];
    const importTo = (shop: TestShop, i: number) =>
      t.admin({ method: 'POST', url: shopUrl(shop, '/campaigns/import'), payload: { campaigns: [campaign(`c${i}`, { rules: [] })] } });
    const [fromA, fromB] = await Promise.all([race(5, (i) => importTo(a, i)), race(5, (i) => importTo(b, i))]);
    expect(statuses(fromA)).toEqual([200, 200, 200, 403, 403]);
    expect(statuses(fromB)).toEqual([200, 200, 200, 403, 403]);
    expect((await campaigns(a)).meta.total).toBe(3);
    expect((await campaigns(b)).meta.total).toBe(3);
  });
});
