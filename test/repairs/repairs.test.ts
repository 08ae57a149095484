/**
 * Missing gifts repaired after an express checkout (CONTRACT part three "Refunds and repairs";
 * docs/repairs.md): `orders/paid` for an order that a live auto-add rule matches without its gift
 * line adds the gift through the stand-in platform's order editing, once per (order, rule), within
 * budget and stock, counted in analytics; `GET …/repairs` lists it. Both stores.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { giftBudgetUsage } from '../../src/db/schema.ts';
import { deliver, productPayload } from '../platform-webhooks/fixtures.ts';
import type { TestApp } from '../support/test-app.ts';
import { orderAudience } from '../../src/repairs/plan.ts';
import { connectedShop, giftRule, paidOrder, repairJobs, repairsOf, runJobs, repairWorld } from './fixtures.ts';

let t: TestApp;
let platform: PlatformStandin;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, platform, close } = await repairWorld());
});
afterAll(() => close());

const standinOrder = (domain: string, id: string) => platform.orderEditing.ordersOf(domain).get(id);
const giftLinesOf = (domain: string, id: string, gift: number) => standinOrder(domain, id)?.lineItems.filter((line) => line.variantId === String(gift)) ?? [];

describe('a missing auto-add gift', () => {
  it('is added with order editing: the gift line, discounted 100 %, committed without notifying the customer; listed and counted', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 900)]);
    const { res, id } = await paidOrder(t, platform, world.domain);
    expect(res.statusCode, res.body).toBe(200);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, campaignId: world.campaignId, ruleId: world.ruleIds[0], variantId: 'gid://shopify/ProductVariant/900', status: 'pending' }]);

    await runJobs(t);
    const [gift] = giftLinesOf(world.domain, id, 900);
    expect(gift).toMatchObject({ quantity: 1, discount: { percentValue: 100, description: 'Free gift' } });
    expect(standinOrder(world.domain, id)?.edits).toEqual([{ notifyCustomer: false, staffNote: expect.stringContaining(world.ruleIds[0] ?? ''), committedAt: expect.any(Number) }]);
    const sent = platform.requests.filter((r) => /RepairEditBegin|RepairAddGift|RepairDiscountGift|RepairCommit/.test(r.query)).map((r) => /mutation (\w+)/.exec(r.query)?.[1]);
    expect(sent.slice(-4)).toEqual(['RepairEditBegin', 'RepairAddGift', 'RepairDiscountGift', 'RepairCommit']);
    expect((await repairsOf(t, world.shop))[0]).toMatchObject({ status: 'repaired', detail: null, ruleName: 'Free mug', giftTitle: null });
    // Named as the catalog names the gift once it knows it ("Default Title" is the platform's placeholder).
    const catalog = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${world.shop.id}/catalog`,
      payload: { products: [{ id: 'gid://shopify/Product/90', title: 'Mug', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/900', title: 'Default Title', inventoryQuantity: 5, inventoryPolicy: 'DENY' }] }] },
    });
    expect(catalog.statusCode, catalog.body).toBe(200);
    expect((await repairsOf(t, world.shop))[0]).toMatchObject({ giftTitle: 'Mug' });

    const analytics = await t.api(world.shop, { method: 'GET', url: '/api/v1/analytics?from=2026-01-01&to=2026-01-31' });
    expect(analytics.statusCode, analytics.body).toBe(200);
    const body = analytics.json() as {
      dailyTotals: Array<{ date: string; totalOrders: number; ordersWithGifts: number }>;
      campaignStats: Array<{ campaignId: string; giftsGiven: number; ordersWithGifts: number }>;
      ruleStats: Array<{ ruleId: string; ordersWithGifts: number; giftsRepaired: number }>;
      summary: { totalGiftsRepaired: number };
    };
    expect(body.campaignStats).toMatchObject([{ campaignId: world.campaignId, giftsGiven: 1, ordersWithGifts: 1 }]);
    // The rule's funnel gains the repaired order, and the summary says it was a repair.
    expect(body.ruleStats).toMatchObject([{ ruleId: world.ruleIds[0], giftsAdded: 0, ordersWithGifts: 1, giftsRepaired: 1 }]);
    expect(body.summary.totalGiftsRepaired).toBe(1);
    expect(body.dailyTotals.find((day) => day.date === '2026-01-15')).toMatchObject({ totalOrders: 1, ordersWithGifts: 1 });
  });

  it('is repaired once however often the order is delivered (same delivery, or a new delivery of the same order)', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 901)]);
    const { id } = await paidOrder(t, platform, world.domain, { webhookId: 'wh-repeat-1' });
    const again = await paidOrder(t, platform, world.domain, { id, webhookId: 'wh-repeat-1' });
    const third = await paidOrder(t, platform, world.domain, { id });
    expect([again.res.statusCode, third.res.statusCode]).toEqual([200, 200]);
    expect(await repairJobs(t, world.shop)).toHaveLength(1);
    await runJobs(t);
    await paidOrder(t, platform, world.domain, { id });
    await runJobs(t);
    expect(giftLinesOf(world.domain, id, 901)).toHaveLength(1);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'repaired' }]);
    expect(await repairJobs(t, world.shop)).toHaveLength(1);

    // Two deliveries of one order at the same instant (two webhook ids, as the platform may send): one job.
    const racing = await paidOrder(t, platform, world.domain);
    await Promise.all([paidOrder(t, platform, world.domain, { id: racing.id }), paidOrder(t, platform, world.domain, { id: racing.id })]);
    expect((await repairJobs(t, world.shop)).filter((job) => job.payload.orderId === racing.id)).toHaveLength(1);
  });

  it('is not added to an order the rule does not match, nor to one that carries the gift line', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 902)]);
    const small = await paidOrder(t, platform, world.domain, { price: '10.00' });
    const carried = await paidOrder(t, platform, world.domain, { gift: { campaignId: world.campaignId, ruleId: world.ruleIds[0] ?? '', variantId: 902 } });
    expect([small.res.statusCode, carried.res.statusCode]).toEqual([200, 200]);
    expect(await repairsOf(t, world.shop)).toEqual([]);
    expect(await repairJobs(t, world.shop)).toEqual([]);
  });

  it('a gift sold out by the time the job runs is skipped, with nothing sent to the platform', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 903)]);
    const { id } = await paidOrder(t, platform, world.domain);
    const soldOut = await deliver(t, productPayload({ id: 93, variants: [{ id: 903, quantity: 0 }] }), { topic: 'products/update', domain: world.domain });
    expect(soldOut.statusCode).toBe(200);
    await runJobs(t);
    expect(standinOrder(world.domain, id)?.edits).toEqual([]);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'skipped_sold_out' }]);
    // Sold out before the order: the rule is not live, nothing is planned.
    const later = await paidOrder(t, platform, world.domain);
    expect((await repairsOf(t, world.shop)).map((r) => r.orderId)).not.toContain(later.id);
  });

  it('within the rule\'s budget: of two orders planned against the last unit, one is repaired and one skipped; then the rule is not live', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 904, {}, { budget: { maxGifts: 1 } })]);
    const first = await paidOrder(t, platform, world.domain);
    const second = await paidOrder(t, platform, world.domain);
    await runJobs(t);
    const statuses = Object.fromEntries((await repairsOf(t, world.shop)).map((r) => [r.orderId, r.status]));
    expect(Object.values(statuses).sort()).toEqual(['repaired', 'skipped_budget']);
    expect(giftLinesOf(world.domain, first.id, 904).length + giftLinesOf(world.domain, second.id, 904).length).toBe(1);
    const [counter] = await t.ctx.db.select().from(giftBudgetUsage).where(and(eq(giftBudgetUsage.shopId, world.shop.id), eq(giftBudgetUsage.scopeId, world.ruleIds[0] ?? '')));
    expect(counter?.used).toBe(1);
    const third = await paidOrder(t, platform, world.domain);
    expect((await repairsOf(t, world.shop)).map((r) => r.orderId)).not.toContain(third.id);
  });

  it('is not repaired when the shop turns checkout.repairMissingGifts off (default on)', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 905)]);
    const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${world.shop.id}` });
    expect((read.json() as { shop: { settings: { checkout: Record<string, unknown> } } }).shop.settings.checkout.repairMissingGifts).toBe(true);
    const off = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${world.shop.id}`, payload: { settings: { checkout: { repairMissingGifts: false } } } });
    expect(off.statusCode, off.body).toBe(200);
    expect((off.json() as { shop: { settings: { checkout: Record<string, unknown> } } }).shop.settings.checkout.repairMissingGifts).toBe(false);
    const rules = await t.api(world.shop, { method: 'GET', url: '/api/v1/rules' });
    expect((rules.json() as { shopSettings: { checkout: Record<string, unknown> } }).shopSettings.checkout).not.toHaveProperty('repairMissingGifts');
    await paidOrder(t, platform, world.domain);
    expect(await repairsOf(t, world.shop)).toEqual([]);
    const bad = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${world.shop.id}`, payload: { settings: { checkout: { repairMissingGifts: 'yes' } } } });
    expect(bad.statusCode).toBe(400);
  });

  it('a customer-choice rule is listed as skipped: the service does not choose for the shopper', async () => {
    const world = await connectedShop(t, platform, [giftRule('Pick one', 906, {}, { actionType: 'customer_choice' })]);
    const { id } = await paidOrder(t, platform, world.domain);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'skipped_customer_choice' }]);
    expect(await repairJobs(t, world.shop)).toEqual([]);
  });

  it('is judged with the order\'s country and discount codes; a market-handle condition never matches (the payload has no market)', async () => {
    const over = (leaf: unknown) => ({ conditionTree: { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }, leaf] } });
    const world = await connectedShop(t, platform, [
      giftRule('Germany', 920, over({ type: 'country.in', value: ['DE'] })),
      giftRule('Code', 921, over({ type: 'discount.code_equals', value: 'GIFT' })),
      giftRule('EU market', 922, over({ type: 'market.handle_in', value: ['eu'] })),
    ]);
    const [germany, code] = world.ruleIds;
    const matching = await paidOrder(t, platform, world.domain, { extra: { shipping_address: { country_code: 'DE' }, discount_codes: [{ code: 'GIFT', amount: '0.00', type: 'fixed_amount' }] } });
    const other = await paidOrder(t, platform, world.domain, { extra: { shipping_address: { country_code: 'US' }, billing_address: { country_code: 'DE' } } });
    const rows = await repairsOf(t, world.shop);
    expect(rows.filter((r) => r.orderId === matching.id).map((r) => r.ruleId).sort()).toEqual([germany, code].sort());
    expect(rows.filter((r) => r.orderId === other.id)).toEqual([]);
  });
});

describe('orderAudience', () => {
  it.each([
    [{ shipping_address: { country_code: 'DE' }, customer: { tags: 'vip, b2b ,' }, discount_codes: [{ code: 'GIFT' }] }, { country: 'DE', customerTags: ['vip', 'b2b'], discountCodes: ['GIFT'] }],
    [{ shipping_address: null, billing_address: { country_code: 'FR' }, customer: null }, { country: 'FR', customerTags: [], discountCodes: [] }],
    [{ discount_codes: 'not a list' }, { customerTags: [], discountCodes: [] }],
    [null, { customerTags: [], discountCodes: [] }],
  ])('reads %j as %j (what it cannot read is left out, never a 400)', (payload, expected) => {
    expect(orderAudience(payload)).toEqual(expected);
  });
});
