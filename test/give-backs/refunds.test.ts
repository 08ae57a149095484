/**
 * `refunds/create` and `orders/cancelled` on POST /webhooks/platform (CONTRACT part three
 * "Refunds and repairs"): budget units and per-customer redemptions given back exactly once,
 * a re-opened rule live again in GET /rules and the checkout configuration, refunds in
 * analytics on their own day. Happy, error and cross-shop cases; PGlite and PostgreSQL.
 */
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftBudgetUsage, orderGiveBacks, outbox, platformWebhookDeliveries } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { SECRET, deliver, domainOf, ordersPaidText } from '../platform-webhooks/fixtures.ts';
import { payloadOf } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { budgetedCampaign, cancelledText, giftProperties, refundText } from './fixtures.ts';
import type { GiftRef } from './fixtures.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let domain: string;
let otherDomain: string;

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  [domain, otherDomain] = await Promise.all([domainOf(t, shop.id), domainOf(t, other.id)]);
});
afterAll(() => t.close());

let nextOrder = 5_000_000_000_000_000_000n;
const CUSTOMER = 7_700_001;

/** Delivers orders/paid: one regular line and `gifts` gift lines (line item ids 466157049 + index). */
async function paid(target: string, gifts: Array<{ gift: GiftRef; quantity: number }>, customerId: number | null = CUSTOMER): Promise<string> {
  nextOrder += 1n;
  const id = String(nextOrder);
  const lines = [{}, ...gifts.map(({ gift, quantity }) => ({ variantId: 904, productId: 94, price: '0.00', quantity, properties: giftProperties(gift) }))];
  const res = await deliver(t, ordersPaidText({ id, customerId, lines }), { topic: 'orders/paid', domain: target });
  expect(res.json()).toEqual({ ok: true, duplicate: false });
  return id;
}
const refund = (target: string, body: string, webhookId?: string) => deliver(t, body, { topic: 'refunds/create', domain: target, ...(webhookId ? { webhookId } : {}) });
const cancel = (target: string, body: string, webhookId?: string) => deliver(t, body, { topic: 'orders/cancelled', domain: target, ...(webhookId ? { webhookId } : {}) });

const used = async (shopId: string, scope: 'rule' | 'campaign', scopeId: string) =>
  (
    await t.ctx.db
      .select({ used: giftBudgetUsage.used })
      .from(giftBudgetUsage)
      .where(and(eq(giftBudgetUsage.shopId, shopId), eq(giftBudgetUsage.scope, scope), eq(giftBudgetUsage.scopeId, scopeId)))
  )[0]?.used;
const redeemed = async (target: TestShop, ruleId: string) => {
  const res = await t.api(target, { method: 'GET', url: `/api/v1/redemptions?customerId=${CUSTOMER}` });
  return (res.json() as { redemptions: Array<{ ruleId: string; count: number }> }).redemptions.find((r) => r.ruleId === ruleId)?.count ?? 0;
};
const ruleIds = async (target: TestShop) => (await payloadOf(t, target)).rules.map((r) => r.id);
type Analytics = {
  dailyTotals: Array<{ date: string; totalOrders: number; ordersWithGifts: number; ordersWithGiftsRefunded: number }>;
  campaignStats: Array<{ date: string; campaignId: string; giftsGiven: number; giftsRefunded: number; ordersWithGiftsRefunded: number }>;
  summary: { totalOrders: number; totalGifts: number; totalGiftsRefunded: number };
};
const analytics = async (target: TestShop, campaignId: string) =>
  (await t.admin({ method: 'GET', url: `/admin/v1/shops/${target.id}/analytics?from=2026-01-15&to=2026-01-21&campaignId=${campaignId}` })).json() as Analytics;

describe('refunds/create', () => {
  it('a refunded gift line gives back its budget units and the redemption; the spent rule is live again in GET /rules and the checkout configuration', async () => {
    const target = await t.createShop('scale');
    const targetDomain = await domainOf(t, target.id);
    const { campaignId, capped } = await budgetedCampaign(t, target, 2);
    const port = createRecordingDiscountPort(t.ctx.db);
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20 });
    const drain = async () => {
      for (let round = 0; round < 20 && (await dispatcher.runOnce()).claimed > 0; round += 1);
    };
    await drain();
    const orderId = await paid(targetDomain, [{ gift: capped, quantity: 2 }]);
    expect(await used(target.id, 'rule', capped.ruleId)).toBe(2);
    expect(await redeemed(target, capped.ruleId)).toBe(1);
    expect(await ruleIds(target)).not.toContain(capped.ruleId);
    await drain();
    expect(Object.keys((await port.recordedConfig(target.id))?.config.r ?? [])).toHaveLength(1);

    const res = await refund(targetDomain, refundText({ id: '9100001', orderId, lines: [{ lineItemId: 466157050, quantity: 2, gift: capped }] }));
    expect(res.json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 2, budgetUnits: 2, redemptions: 1 } });
    expect(await used(target.id, 'rule', capped.ruleId)).toBe(0);
    expect(await redeemed(target, capped.ruleId)).toBe(0);
    expect(await ruleIds(target)).toContain(capped.ruleId);
    const syncs = await t.ctx.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.shopId, target.id), eq(outbox.kind, 'discount_sync'), eq(outbox.status, 'pending')));
    expect(syncs.map((row) => row.payload)).toEqual([{ campaignId, active: true }]);
    await drain();
    expect(Object.keys((await port.recordedConfig(target.id))?.config.r ?? [])).toHaveLength(2);

    // The order stays on its day; the refund shows on its own.
    const report = await analytics(target, campaignId);
    expect(report.campaignStats).toEqual([
      expect.objectContaining({ date: '2026-01-15', campaignId, giftsGiven: 2, giftsRefunded: 0, ordersWithGiftsRefunded: 0 }),
      expect.objectContaining({ date: '2026-01-20', campaignId, giftsGiven: 0, giftsRefunded: 2, ordersWithGiftsRefunded: 1 }),
    ]);
    expect(report.dailyTotals.find((d) => d.date === '2026-01-15')).toMatchObject({ totalOrders: 1, ordersWithGifts: 1, ordersWithGiftsRefunded: 0 });
    expect(report.dailyTotals.find((d) => d.date === '2026-01-20')).toMatchObject({ totalOrders: 0, ordersWithGifts: 0, ordersWithGiftsRefunded: 1 });
    expect(report.summary).toMatchObject({ totalOrders: 1, totalGifts: 2, totalGiftsRefunded: 2 });
  });

  it('partial refunds give back unit by unit, the redemption with the last gift unit, never more than the order carried', async () => {
    const { capped } = await budgetedCampaign(t, shop, 100);
    const orderId = await paid(domain, [{ gift: capped, quantity: 3 }]);
    const before = (await used(shop.id, 'rule', capped.ruleId)) ?? 0;
    const part = (id: string, quantity: number) => refund(domain, refundText({ id, orderId, lines: [{ lineItemId: 466157050, quantity, gift: capped, lineQuantity: 3 }] }));
    expect((await part('9200001', 1)).json()).toMatchObject({ givenBack: { giftUnits: 1, budgetUnits: 1, redemptions: 0 } });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before - 1);
    expect(await redeemed(shop, capped.ruleId)).toBe(1);
    expect((await part('9200002', 2)).json()).toMatchObject({ givenBack: { giftUnits: 2, budgetUnits: 2, redemptions: 1 } });
    expect(await redeemed(shop, capped.ruleId)).toBe(0);
    expect((await part('9200003', 2)).json()).toMatchObject({ givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before - 3);
  });

  it('a refund of regular lines only gives nothing back', async () => {
    const { capped } = await budgetedCampaign(t, shop, 100);
    const orderId = await paid(domain, [{ gift: capped, quantity: 1 }]);
    const before = await used(shop.id, 'rule', capped.ruleId);
    const res = await refund(domain, refundText({ id: '9300001', orderId, lines: [{ lineItemId: 466157049, quantity: 1 }] }));
    expect(res.json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before);
    expect(await redeemed(shop, capped.ruleId)).toBeGreaterThan(0);
  });

  it('units intake could not grant (over budget) are refunded first: they never counted', async () => {
    const target = await t.createShop('scale');
    const targetDomain = await domainOf(t, target.id);
    const { capped } = await budgetedCampaign(t, target, 2);
    const orderId = await paid(targetDomain, [{ gift: capped, quantity: 3 }]);
    expect(await used(target.id, 'rule', capped.ruleId)).toBe(2);
    const one = (id: string) => refund(targetDomain, refundText({ id, orderId, lines: [{ lineItemId: 466157050, quantity: 1, gift: capped, lineQuantity: 3 }] }));
    expect((await one('9400001')).json()).toMatchObject({ givenBack: { giftUnits: 1, budgetUnits: 0 } });
    expect(await used(target.id, 'rule', capped.ruleId)).toBe(2);
    expect(await ruleIds(target)).not.toContain(capped.ruleId);
    expect((await one('9400002')).json()).toMatchObject({ givenBack: { giftUnits: 1, budgetUnits: 1 } });
    expect(await used(target.id, 'rule', capped.ruleId)).toBe(1);
    expect(await ruleIds(target)).toContain(capped.ruleId);
  });

  it("a refunded line naming a rule with another campaign than the rule's gives back no budget: intake never charged it", async () => {
    const { capped } = await budgetedCampaign(t, shop, 100);
    const { campaignId: elsewhere } = await budgetedCampaign(t, shop, 100);
    const forged = { campaignId: elsewhere, ruleId: capped.ruleId };
    const orderId = await paid(domain, [{ gift: capped, quantity: 1 }, { gift: forged, quantity: 2 }]);
    const before = await used(shop.id, 'rule', capped.ruleId);
    const res = await refund(domain, refundText({ id: '9450001', orderId, lines: [{ lineItemId: 466157051, quantity: 2, gift: forged }] }));
    // Gift units of the other campaign (analytics count them), no budget unit, and the rule's own line still redeems.
    expect(res.json()).toMatchObject({ givenBack: { giftUnits: 2, budgetUnits: 0, redemptions: 0 } });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before);
  });

  it('the same refund delivered twice gives back once: the same webhook id, or the same refund id under another', async () => {
    const { capped } = await budgetedCampaign(t, shop, 100);
    const orderId = await paid(domain, [{ gift: capped, quantity: 2 }]);
    const before = (await used(shop.id, 'rule', capped.ruleId)) ?? 0;
    const body = refundText({ id: '9500001', orderId, lines: [{ lineItemId: 466157050, quantity: 1, gift: capped, lineQuantity: 2 }] });
    expect((await refund(domain, body, 'wh-refund-twice')).json()).toMatchObject({ duplicate: false, givenBack: { giftUnits: 1 } });
    expect((await refund(domain, body, 'wh-refund-twice')).json()).toEqual({ ok: true, duplicate: true });
    expect((await refund(domain, body, 'wh-refund-again')).json()).toEqual({ ok: true, duplicate: true });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before - 1);
    const rows = await t.ctx.db.select().from(orderGiveBacks).where(and(eq(orderGiveBacks.shopId, shop.id), eq(orderGiveBacks.orderId, orderId)));
    expect(rows.map((row) => row.ref)).toEqual(['refund:9500001']);
  });

  it('a refund for an order the service never recorded changes nothing and says so', async () => {
    const res = await refund(domain, refundText({ id: '9600001', orderId: '4242424242', lines: [{ quantity: 1 }] }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
    expect(await t.ctx.db.select().from(orderGiveBacks).where(eq(orderGiveBacks.orderId, '4242424242'))).toEqual([]);
  });

  it("another shop's refund of the same order id, or naming this shop's campaign, changes nothing here", async () => {
    const { capped } = await budgetedCampaign(t, shop, 100);
    const orderId = await paid(domain, [{ gift: capped, quantity: 2 }]);
    const before = await used(shop.id, 'rule', capped.ruleId);
    const body = refundText({ id: '9700001', orderId, lines: [{ lineItemId: 466157050, quantity: 2, gift: capped }] });
    expect((await refund(otherDomain, body)).json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
    expect((await cancel(otherDomain, cancelledText({ orderId }))).json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
    // The other shop's own order, refunded with this shop's gift properties: not its campaign.
    const theirs = await paid(otherDomain, [{ gift: capped, quantity: 2 }]);
    expect((await refund(otherDomain, refundText({ id: '9700002', orderId: theirs, lines: [{ lineItemId: 466157050, quantity: 2, gift: capped }] }))).json()).toMatchObject({
      givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 },
    });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before);
    expect(await redeemed(shop, capped.ruleId)).toBeGreaterThan(0);
    // The refund still counts once here, under its own shop.
    expect((await refund(domain, body)).json()).toMatchObject({ givenBack: { giftUnits: 2, budgetUnits: 2 } });
  });

  it('answers 400 with the path for a payload it does not take, and claims nothing', async () => {
    const valid = JSON.parse(refundText({ id: '9800001', orderId: '1', lines: [{ quantity: 1 }] })) as Record<string, unknown>;
    for (const [body, path] of [
      [{ ...valid, order_id: undefined }, ['order_id']],
      [{ ...valid, id: 'abc' }, ['id']],
      [{ ...valid, refund_line_items: [{ line_item_id: 1, quantity: -1 }] }, ['refund_line_items', 0, 'quantity']],
      [{ ...valid, refund_line_items: 'all' }, ['refund_line_items']],
    ] as const) {
      const res = await refund(domain, JSON.stringify(body), 'wh-refund-invalid');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid refunds/create payload', path });
    }
    const noDate = await cancel(domain, cancelledText({ orderId: '1', cancelledAt: null }), 'wh-refund-invalid');
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json()).toMatchObject({ error: 'Invalid orders/cancelled payload', path: ['cancelled_at'] });
    expect(await t.ctx.db.select().from(platformWebhookDeliveries).where(eq(platformWebhookDeliveries.webhookId, 'wh-refund-invalid'))).toEqual([]);
  });

  it('answers 200 or 400 to any signed payload of either topic', async () => {
    const valid = {
      'refunds/create': () => JSON.parse(refundText({ id: '1', orderId: '2', lines: [{ quantity: 1 }] })) as Record<string, unknown>,
      'orders/cancelled': () => JSON.parse(cancelledText({ orderId: '2' })) as Record<string, unknown>,
    };
    const topics = Object.keys(valid) as Array<keyof typeof valid>;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...topics), fc.string({ maxLength: 20 }), fc.jsonValue(), async (topic, key, value) => {
        const base = valid[topic]();
        const keys = Object.keys(base);
        const field = keys.includes(key) ? key : (keys[key.length % keys.length] ?? 'id');
        const res = await deliver(t, { ...base, [field]: value }, { topic, domain: otherDomain });
        expect([200, 400], res.body).toContain(res.statusCode);
      }),
      { numRuns: 60, seed: 20261127 },
    );
  });
});

describe('orders/cancelled', () => {
  it('gives back every gift unit and redemption of the order, once; a later refund of it gives nothing more', async () => {
    const { campaignId, capped, open } = await budgetedCampaign(t, shop, 100);
    const orderId = await paid(domain, [{ gift: capped, quantity: 2 }, { gift: open, quantity: 1 }]);
    const before = (await used(shop.id, 'rule', capped.ruleId)) ?? 0;
    expect(await redeemed(shop, open.ruleId)).toBe(1);
    const res = await cancel(domain, cancelledText({ orderId }), 'wh-cancel-once');
    expect(res.json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 3, budgetUnits: 2, redemptions: 2 } });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before - 2);
    expect(await redeemed(shop, capped.ruleId)).toBe(0);
    expect(await redeemed(shop, open.ruleId)).toBe(0);
    expect((await cancel(domain, cancelledText({ orderId }), 'wh-cancel-once')).json()).toEqual({ ok: true, duplicate: true });
    expect((await cancel(domain, cancelledText({ orderId }))).json()).toEqual({ ok: true, duplicate: true });
    const after = await refund(domain, refundText({ id: '9900001', orderId, lines: [{ lineItemId: 466157050, quantity: 2, gift: capped }] }));
    expect(after.json()).toMatchObject({ givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
    expect(await used(shop.id, 'rule', capped.ruleId)).toBe(before - 2);
    const report = await analytics(shop, campaignId);
    expect(report.campaignStats.find((s) => s.date === '2026-01-21')).toMatchObject({ giftsRefunded: 3, ordersWithGiftsRefunded: 1 });
  });

  it('of an order without a customer or gifts: nothing to give back, 200', async () => {
    const guest = await paid(domain, [], null);
    expect((await cancel(domain, cancelledText({ orderId: guest }))).json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
    expect((await cancel(domain, cancelledText({ orderId: '31337' }))).json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
  });
});
