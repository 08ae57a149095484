/**
 * Gift stock (issue 11 part 5, docs/evaluation.md "Gift stock"): the catalog the platform's
 * webhooks keep current decides what GET /rules and POST /evaluate offer. A sold-out gift
 * (policy DENY, no stock) is skipped for the next in stock when `fallbackOnOOS`; a rule with
 * nothing to give is left out until stock returns, its campaign still enabled.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluationOf, line, liveCampaign, variant } from '../evaluate/helpers.ts';
import { SECRET, deliver, domainOf, productPayload } from './fixtures.ts';

type PayloadRule = { id: string; campaignId: string; giftConfig: { gifts: Array<{ variantId: string }>; fallbackOnOOS: boolean } };

const OPTIONS = { discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' };
const giftRule = (gifts: number[], fallbackOnOOS: boolean, actionType = 'auto_add') => ({
  name: `Gifts ${gifts.join(',')}`,
  enabled: true,
  conditionTree: { type: 'cart.subtotal_gte', value: 1000 },
  giftConfig: { type: 'fixed', gifts: gifts.map((n) => ({ variantId: variant(n), quantity: 1 })), fallbackOnOOS },
  options: { ...OPTIONS, actionType },
});

describe('gift stock in /rules and /evaluate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
  });
  afterAll(() => t.close());

  /** A shop with one live campaign of `rule`, and gift products 90 (variant 900, item 9000) and 91 (variant 901) in stock. */
  async function shopWith(rule: unknown): Promise<{ shop: TestShop; domain: string; campaignId: string }> {
    const shop = await t.createShop('scale');
    const domain = await domainOf(t, shop.id);
    const imported = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [liveCampaign('Gifts', [rule])] } });
    expect(imported.statusCode, imported.body).toBe(200);
    const [campaignId] = (imported.json() as { campaignIds: string[] }).campaignIds;
    for (const [product, gift] of [[90, 900], [91, 901]] as const) {
      const res = await deliver(t, productPayload({ id: product, variants: [{ id: gift, quantity: 3, inventoryItemId: gift * 10 }] }), { topic: 'products/create', domain });
      expect(res.statusCode).toBe(200);
    }
    return { shop, domain, campaignId: campaignId ?? '' };
  }
  const rulesOf = async (shop: TestShop, etag?: string) => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/rules', headers: etag ? { 'if-none-match': etag } : {} });
    return { status: res.statusCode, etag: String(res.headers.etag), rules: res.statusCode === 200 ? (res.json() as { rules: PayloadRule[] }).rules : undefined };
  };
  const setStock = (domain: string, product: number, gift: number, quantity: number, policy = 'deny') =>
    deliver(t, productPayload({ id: product, variants: [{ id: gift, quantity, policy, inventoryItemId: gift * 10 }] }), { topic: 'products/update', domain });
  /** The discount syncs queued for the shop, by campaign: each rewrites the checkout configuration. */
  const syncsOf = async (shop: TestShop) =>
    (await t.ctx.db.select({ payload: outbox.payload }).from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.kind, 'discount_sync')))).map(
      (row) => row.payload.campaignId,
    );
  const addedVariants = async (shop: TestShop) =>
    (await evaluationOf(t, shop, cartOf([line()]))).operations.flatMap((op) => (op.type === 'add' ? [op.variantId] : op.type === 'choose' ? op.options.map((o) => o.variantId) : []));

  it('a products/update that zeroes the only gift changes the next /rules (and its ETag); restocking brings it back', async () => {
    const { shop, domain, campaignId } = await shopWith(giftRule([900], false));
    const offered = await rulesOf(shop);
    expect(offered.rules?.map((rule) => rule.campaignId)).toEqual([campaignId]);
    expect(await addedVariants(shop)).toEqual([variant(900)]);

    const syncsBefore = await syncsOf(shop);
    expect((await setStock(domain, 90, 900, 0)).statusCode).toBe(200);
    // The checkout configuration is built from the same payload: it is resynced too.
    expect((await syncsOf(shop)).sort()).toEqual([...syncsBefore, campaignId].sort());
    const soldOut = await rulesOf(shop, offered.etag);
    expect(soldOut.status).toBe(200);
    expect(soldOut.etag).not.toBe(offered.etag);
    expect(soldOut.rules).toEqual([]);
    expect(await addedVariants(shop)).toEqual([]);
    // Still enabled: the merchant's switch is not the stock's.
    const campaign = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json() as { campaign: { enabled: boolean; isDraft: boolean } };
    expect(campaign.campaign).toMatchObject({ enabled: true, isDraft: false });

    // Stock back through inventory_levels/update (the variant's inventory item).
    await deliver(t, { inventory_item_id: 9000, location_id: 1, available: 2 }, { topic: 'inventory_levels/update', domain });
    const back = await rulesOf(shop, soldOut.etag);
    expect(back.status).toBe(200);
    expect(back.rules?.map((rule) => rule.campaignId)).toEqual([campaignId]);
    expect(await addedVariants(shop)).toEqual([variant(900)]);

    expect((await syncsOf(shop)).sort()).toEqual([...syncsBefore, campaignId, campaignId].sort());

    // A change of stock that sells out nothing leaves the rules (and storefront caches) alone,
    // and so does selling out a variant no live rule gives.
    await deliver(t, { inventory_item_id: 9000, location_id: 1, available: 1 }, { topic: 'inventory_levels/update', domain });
    await setStock(domain, 91, 901, 0);
    expect((await rulesOf(shop, back.etag)).status).toBe(304);
    expect(await syncsOf(shop)).toHaveLength(syncsBefore.length + 2);
  });

  it('renaming a live gift changes the next /rules (the storefront names gifts); renaming another product does not', async () => {
    const { shop, domain } = await shopWith(giftRule([900], false));
    const before = await rulesOf(shop);
    const rename = (product: number, gift: number, title: string) =>
      deliver(t, productPayload({ id: product, title, variants: [{ id: gift, quantity: 3, inventoryItemId: gift * 10 }] }), { topic: 'products/update', domain });
    expect((await rename(91, 901, 'Not a gift any more')).statusCode).toBe(200);
    expect((await rulesOf(shop, before.etag)).status).toBe(304);
    expect((await rename(90, 900, 'Enamel Mug')).statusCode).toBe(200);
    const after = await rulesOf(shop, before.etag);
    expect(after.status).toBe(200);
    // The same stock and title again: nothing to tell a storefront.
    expect((await rename(90, 900, 'Enamel Mug')).statusCode).toBe(200);
    expect((await rulesOf(shop, after.etag)).status).toBe(304);
  });

  it('repricing a live gift changes the next /rules (the storefront shows gift prices); the same price again does not', async () => {
    const { shop, domain } = await shopWith(giftRule([900], false));
    const before = await rulesOf(shop);
    const reprice = (price: string) =>
      deliver(t, productPayload({ id: 90, variants: [{ id: 900, quantity: 3, inventoryItemId: 9000, price }] }), { topic: 'products/update', domain });
    expect((await reprice('12.50')).statusCode).toBe(200);
    const after = await rulesOf(shop, before.etag);
    expect(after.status).toBe(200);
    expect((await reprice('12.50')).statusCode).toBe(200);
    expect((await rulesOf(shop, after.etag)).status).toBe(304);
  });

  it('fallbackOnOOS: the next gift of the list in stock is given', async () => {
    const { shop, domain } = await shopWith(giftRule([900, 901], true));
    await setStock(domain, 90, 900, 0);
    const { rules } = await rulesOf(shop);
    expect(rules?.[0]?.giftConfig).toMatchObject({ gifts: [{ variantId: variant(901) }], fallbackOnOOS: true });
    expect(await addedVariants(shop)).toEqual([variant(901)]);
    await setStock(domain, 91, 901, 0);
    expect((await rulesOf(shop)).rules).toEqual([]);
    await setStock(domain, 90, 900, 5);
    expect(await addedVariants(shop)).toEqual([variant(900)]);
  });

  it('without fallbackOnOOS an automatic rule whose first gift is sold out gives nothing, even with a later gift in stock', async () => {
    const { shop, domain } = await shopWith(giftRule([900, 901], false));
    await setStock(domain, 90, 900, 0);
    expect((await rulesOf(shop)).rules).toEqual([]);
    expect(await addedVariants(shop)).toEqual([]);
  });

  it('a customer-choice rule offers the gifts in stock', async () => {
    const { shop, domain } = await shopWith(giftRule([900, 901], false, 'customer_choice'));
    await setStock(domain, 91, 901, 0);
    expect(await addedVariants(shop)).toEqual([variant(900)]);
  });

  it('CONTINUE sells past zero, and untracked stock is always in stock', async () => {
    const { shop, domain } = await shopWith(giftRule([900], false));
    await setStock(domain, 90, 900, 0, 'continue');
    expect(await addedVariants(shop)).toEqual([variant(900)]);
    await setStock(domain, 90, 900, -3, 'continue');
    expect(await addedVariants(shop)).toEqual([variant(900)]);
  });

  it('one shop\'s sold-out variant does not hide another shop\'s gift of the same id', async () => {
    const a = await shopWith(giftRule([900], false));
    const b = await shopWith(giftRule([900], false));
    await setStock(a.domain, 90, 900, 0);
    expect((await rulesOf(a.shop)).rules).toEqual([]);
    expect((await rulesOf(b.shop)).rules).toHaveLength(1);
  });
});
