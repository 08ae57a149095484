/**
 * The admin's catalog writes keep the checkout configuration in step with the storefront
 * payload (docs/lifecycle-catalog-webhooks.md "Catalog writes and the checkout configuration"):
 * POST /catalog that makes a live rule's gift sold out or back in stock queues one discount sync
 * per campaign giving it, and nothing else does — an upsert of other products, a change of stock
 * that crosses nothing, a draft's gift, another shop's, a refused write, a product deleted (its
 * variants keep their stock as the payload reads it). The sync then writes a configuration
 * holding exactly the rules GET /rules offers.
 */
import { compactRules } from '@gcrs/engine/checkout';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { liveCampaign, variant } from '../evaluate/helpers.ts';
import { product, productGid, variantGid } from '../lifecycle/harness.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const OPTIONS = { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' };
const giftRule = (gift: number) => ({
  name: `Gift ${gift}`,
  enabled: true,
  conditionTree: { type: 'cart.subtotal_gte', value: 1000 },
  giftConfig: { type: 'fixed', gifts: [{ variantId: variant(gift), quantity: 1 }], fallbackOnOOS: false },
  options: OPTIONS,
});

const upsert = (shop: TestShop, payload: unknown) => t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: payload as object });
const remove = (shop: TestShop, productId: string) =>
  t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/catalog/products/${encodeURIComponent(productId)}` });
/** Product n with its one variant n at `quantity` (policy DENY: 0 is sold out). */
const stocked = (n: number, quantity: number, extra: Record<string, unknown> = {}) => product(n, extra, { inventoryQuantity: quantity });

/** A shop with gift products 90 and 91 in stock and one campaign giving variant 90 (live unless `draft`). */
async function shopWithGift(options: { draft?: boolean; gift?: number } = {}): Promise<{ shop: TestShop; campaignId: string }> {
  const shop = await t.createShop('scale');
  expect((await upsert(shop, { products: [stocked(90, 3), stocked(91, 3)] })).statusCode).toBe(200);
  const campaign = liveCampaign('Gifts', [giftRule(options.gift ?? 90)], options.draft ? { enabled: false, isDraft: true } : {});
  const imported = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [campaign] } });
  expect(imported.statusCode, imported.body).toBe(200);
  const [campaignId] = (imported.json() as { campaignIds: string[] }).campaignIds;
  return { shop, campaignId: campaignId ?? '' };
}

/** The campaign ids of the shop's queued discount syncs, one per outbox row. */
const syncsOf = async (shop: TestShop): Promise<string[]> =>
  (await t.ctx.db.select({ payload: outbox.payload }).from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.kind, 'discount_sync')))).map((row) =>
    String(row.payload.campaignId ?? 'setup'),
  );
/** The discount syncs `write` queued. */
async function syncsQueuedBy(shop: TestShop, write: () => Promise<{ statusCode: number }>, status = 200): Promise<string[]> {
  const before = await syncsOf(shop);
  expect((await write()).statusCode).toBe(status);
  const after = await syncsOf(shop);
  for (const id of before) after.splice(after.indexOf(id), 1);
  return after;
}
const offeredRules = async (shop: TestShop) => ((await t.api(shop, { method: 'GET', url: '/api/v1/rules' })).json() as { rules: Array<{ campaignId: string }> }).rules;

describe('POST /catalog and the checkout configuration', () => {
  it('selling out a live rule\'s gift queues one discount sync for its campaign, and so does bringing it back', async () => {
    const { shop, campaignId } = await shopWithGift();
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 0)] }))).toEqual([campaignId]);
    expect(await offeredRules(shop)).toEqual([]);
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 4)] }))).toEqual([campaignId]);
    expect((await offeredRules(shop)).map((rule) => rule.campaignId)).toEqual([campaignId]);
  });

  it('an upsert that crosses no live gift queues nothing: other products, 3 → 2, CONTINUE at zero, collections only', async () => {
    const { shop } = await shopWithGift();
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(91, 0), stocked(92, 0)] }))).toEqual([]);
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 2, { title: 'Renamed' })] }))).toEqual([]);
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [product(90, {}, { inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' })] }))).toEqual([]);
    const collection = { id: 'gid://shopify/Collection/5', handle: 'gifts', productIds: [productGid(90)] };
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [], collections: [collection] }))).toEqual([]);
  });

  it('a sold-out gift left out of its product\'s variants (or moved to another product) is back in stock: one sync', async () => {
    const { shop, campaignId } = await shopWithGift();
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 0)] }))).toEqual([campaignId]);
    // The product's variants are replaced: the catalog no longer has variant 90, an unknown gift is in stock.
    const other = { ...product(90), variants: [{ id: variantGid(95), title: 'Other', inventoryQuantity: 1, inventoryPolicy: 'DENY' }] };
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [other] }))).toEqual([campaignId]);
    expect((await offeredRules(shop)).map((rule) => rule.campaignId)).toEqual([campaignId]);
    // Variant 90 comes back sold out under product 93: read where it was (nowhere) and where it is.
    const moved = { ...product(93), variants: [{ id: variantGid(90), title: 'Default Title', inventoryQuantity: 0, inventoryPolicy: 'DENY' }] };
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [moved] }))).toEqual([campaignId]);
    // Moved back under product 90, still sold out: nothing crossed.
    const back = { ...product(90), variants: [{ id: variantGid(90), title: 'Default Title', inventoryQuantity: 0, inventoryPolicy: 'DENY' }] };
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [back] }))).toEqual([]);
  });

  it('every live campaign giving the gift gets one sync; a draft giving it gets none', async () => {
    const { shop, campaignId } = await shopWithGift();
    const second = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [liveCampaign('Second', [giftRule(90), giftRule(90)])] } });
    const draft = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      payload: { campaigns: [liveCampaign('Draft', [giftRule(90)], { enabled: false, isDraft: true })] },
    });
    expect([second.statusCode, draft.statusCode]).toEqual([200, 200]);
    const [secondId] = (second.json() as { campaignIds: string[] }).campaignIds;
    expect((await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 0)] }))).sort()).toEqual([campaignId, secondId].sort());
  });

  it('a draft campaign\'s gift sold out queues nothing', async () => {
    const { shop } = await shopWithGift({ draft: true });
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 0)] }))).toEqual([]);
  });

  it('a refused upsert queues nothing: a bad body (400), a collection handle held by another collection (409)', async () => {
    const { shop } = await shopWithGift();
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [{ ...stocked(90, 0), id: 'not-a-gid' }] }), 400)).toEqual([]);
    const held = { id: 'gid://shopify/Collection/1', handle: 'held', productIds: [] };
    expect((await upsert(shop, { products: [], collections: [held] })).statusCode).toBe(200);
    const clash = { products: [stocked(90, 0)], collections: [{ ...held, id: 'gid://shopify/Collection/2' }] };
    expect(await syncsQueuedBy(shop, () => upsert(shop, clash), 409)).toEqual([]);
    expect(await offeredRules(shop)).toHaveLength(1);
  });

  it('one shop\'s upsert never queues for another shop\'s campaign giving the same variant', async () => {
    const a = await shopWithGift();
    const b = await shopWithGift();
    const bBefore = await syncsOf(b.shop);
    expect(await syncsQueuedBy(a.shop, () => upsert(a.shop, { products: [stocked(90, 0)] }))).toEqual([a.campaignId]);
    expect(await syncsOf(b.shop)).toEqual(bBefore);
    expect(await offeredRules(b.shop)).toHaveLength(1);
    // b brings its own gift back from sold out: b's campaign, not a's (still sold out).
    const aBefore = await syncsOf(a.shop);
    expect(await syncsQueuedBy(b.shop, () => upsert(b.shop, { products: [stocked(90, 0)] }))).toEqual([b.campaignId]);
    expect(await syncsQueuedBy(b.shop, () => upsert(b.shop, { products: [stocked(90, 1)] }))).toEqual([b.campaignId]);
    expect(await syncsOf(a.shop)).toEqual(aBefore);
    expect(await offeredRules(a.shop)).toEqual([]);
    // An unknown shop: 404, nothing queued anywhere.
    expect((await upsert({ ...a.shop, id: 'shp_doesnotexist000' }, { products: [stocked(90, 4)] })).statusCode).toBe(404);
    expect(await syncsOf(a.shop)).toEqual(aBefore);
  });
});

describe('DELETE /catalog/products/:productId and the checkout configuration', () => {
  it('deleting a live gift\'s product queues no sync: the payload still offers its rule, as the configuration does', async () => {
    const { shop, campaignId } = await shopWithGift();
    expect(await syncsQueuedBy(shop, () => remove(shop, productGid(90)))).toEqual([]);
    expect((await offeredRules(shop)).map((rule) => rule.campaignId)).toEqual([campaignId]);
    // Unknown product: 404, nothing queued.
    expect(await syncsQueuedBy(shop, () => remove(shop, productGid(99)), 404)).toEqual([]);
    // Sent again sold out, the deleted product is live again and its gift sold out: one sync.
    expect(await syncsQueuedBy(shop, () => upsert(shop, { products: [stocked(90, 0)] }))).toEqual([campaignId]);
  });
});

describe('the sync after a catalog write', () => {
  it('writes a configuration with exactly the rules GET /rules offers, the gift back in stock included', async () => {
    const port = createRecordingDiscountPort(t.ctx.db);
    const jobs = createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port });
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs, webhooks: createWebhookSender(), pollMs: 20 });
    const drain = async () => {
      while ((await dispatcher.runOnce()).claimed > 0);
    };
    const { shop } = await shopWithGift();
    const giftsConfigured = async () => {
      const recorded = await port.recordedConfig(shop.id);
      return recorded === undefined ? [] : compactRules(recorded.config).map((rule) => JSON.stringify(rule?.[3]));
    };
    await drain();
    expect(await giftsConfigured()).toEqual(['[90]']);

    expect((await upsert(shop, { products: [stocked(90, 0)] })).statusCode).toBe(200);
    await drain();
    expect(await offeredRules(shop)).toEqual([]);
    expect(await giftsConfigured()).toEqual([]);

    expect((await upsert(shop, { products: [stocked(90, 5)] })).statusCode).toBe(200);
    await drain();
    expect(await offeredRules(shop)).toHaveLength(1);
    expect(await giftsConfigured()).toEqual(['[90]']);
  });
});
