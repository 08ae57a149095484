/** writeShop, the one unit of work of shop writes: lock and re-read, outbox, rules version, cache. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, outbox } from '../../src/db/schema.ts';
import { ApiError } from '../../src/http/errors.ts';
import { getShop, setShopFields } from '../../src/shops/store.ts';
import { writeShop } from '../../src/shops/unit-of-work.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const version = async (shop: TestShop) => (await getShop(t.ctx.db, shop.id))?.rulesVersion;
const outboxRows = (shop: TestShop) => t.ctx.db.select().from(outbox).where(eq(outbox.shopId, shop.id));
/** Fills the rules cache for the shop; returns the version cached. */
const warmCache = async (shop: TestShop) => {
  const res = await t.api(shop, { method: 'GET', url: '/api/v1/rules' });
  expect(res.statusCode).toBe(200);
  return t.ctx.rulesCache.cachedVersion(shop.id);
};
const addEndpoint = async (shop: TestShop) => {
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: 'https://hooks.example.com/x' } });
  expect(res.statusCode).toBe(201);
};

describe('writeShop', () => {
  it('hands the work the shop as stored now, not the copy read before', async () => {
    const shop = await t.createShop('growth');
    const before = await getShop(t.ctx.db, shop.id);
    await setShopFields(t.ctx.db, shop.id, { plan: 'pro', settings: { lowStockThreshold: 2 } });
    const seen = await writeShop(t.ctx, shop.id, async (uow) => uow.shop);
    expect(before?.plan).toBe('growth');
    expect(seen).toMatchObject({ id: shop.id, plan: 'pro', settings: { lowStockThreshold: 2 } });
  });

  it('commits the work, its outbox rows and one rules version bump together, then evicts the cache', async () => {
    const shop = await t.createShop('scale');
    await addEndpoint(shop);
    const cached = await warmCache(shop);
    expect(cached).toBeDefined();
    const result = await writeShop(t.ctx, shop.id, async (uow) => {
      uow.enqueue(
        { kind: 'webhook', type: 'campaign.activated', data: { campaignId: 'cmp_a' } },
        { kind: 'discount_sync', payload: { campaignId: 'cmp_a', active: true } },
      );
      uow.enqueue({ kind: 'webhook', type: 'campaign.activated', data: { campaignId: 'cmp_b' } });
      uow.touchRules();
      uow.touchRules();
      return 'done';
    });
    expect(result).toBe('done');
    expect(await version(shop)).toBe((cached ?? 0) + 1);
    expect(t.ctx.rulesCache.cachedVersion(shop.id)).toBeUndefined();
    // A webhook row carries { type, timestamp, data }; a job row its payload as given.
    const campaignOf = (payload: unknown) => {
      const p = payload as { campaignId?: string; data?: { campaignId?: string } };
      return p.data?.campaignId ?? p.campaignId;
    };
    const rows = await outboxRows(shop);
    expect(rows.map((r) => [r.kind, campaignOf(r.payload)]).sort()).toEqual([
      ['discount_sync', 'cmp_a'],
      ['webhook', 'cmp_a'],
      ['webhook', 'cmp_b'],
    ]);
  });

  it('leaves the version and the cache alone when the work does not touch the rules', async () => {
    const shop = await t.createShop('scale');
    const cached = await warmCache(shop);
    await writeShop(t.ctx, shop.id, async () => undefined);
    expect(await version(shop)).toBe(cached);
    expect(t.ctx.rulesCache.cachedVersion(shop.id)).toBe(cached);
  });

  it('rolls everything back and rethrows the very error when the work throws', async () => {
    const shop = await t.createShop('scale');
    await addEndpoint(shop);
    const cached = await warmCache(shop);
    const thrown = new ApiError('conflict', { error: 'Nope' });
    const attempt = writeShop(t.ctx, shop.id, async (uow) => {
      await uow.tx.insert(campaigns).values({ shopId: shop.id, id: 'cmp_rolled_back', name: 'x', enabled: false, isDraft: true });
      uow.enqueue({ kind: 'webhook', type: 'campaign.activated', data: { campaignId: 'cmp_rolled_back' } });
      uow.touchRules();
      throw thrown;
    });
    await expect(attempt).rejects.toBe(thrown);
    expect(await t.ctx.db.select().from(campaigns).where(eq(campaigns.id, 'cmp_rolled_back'))).toEqual([]);
    expect(await outboxRows(shop)).toEqual([]);
    expect(await version(shop)).toBe(cached);
    expect(t.ctx.rulesCache.cachedVersion(shop.id)).toBe(cached);
  });

  it('answers 404 for a shop that does not exist, before running the work', async () => {
    let ran = false;
    const attempt = writeShop(t.ctx, 'shp_missing', async () => {
      ran = true;
    });
    await expect(attempt).rejects.toMatchObject({ status: 404, body: { error: 'Shop not found' } });
    expect(ran).toBe(false);
  });

  it('writes only the shop it names: another shop keeps its version, cache and outbox', async () => {
    const [mine, other] = [await t.createShop('scale'), await t.createShop('scale')];
    await addEndpoint(other);
    const cached = await warmCache(other);
    await writeShop(t.ctx, mine.id, async (uow) => {
      uow.enqueue({ kind: 'webhook', type: 'campaign.activated', data: { campaignId: 'cmp_x' } });
      uow.touchRules();
    });
    expect(await version(other)).toBe(cached);
    expect(t.ctx.rulesCache.cachedVersion(other.id)).toBe(cached);
    expect(await outboxRows(other)).toEqual([]);
  });
});

describe('routes go through it', () => {
  it('a failed write (404 campaign) changes neither the version nor the cache', async () => {
    const shop = await t.createShop('scale');
    const cached = await warmCache(shop);
    const res = await t.api(shop, { method: 'DELETE', url: '/api/v1/campaigns/cmp_nope' });
    expect(res.statusCode).toBe(404);
    expect(await version(shop)).toBe(cached);
    expect(t.ctx.rulesCache.cachedVersion(shop.id)).toBe(cached);
  });
});
