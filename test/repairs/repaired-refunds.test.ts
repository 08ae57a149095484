/**
 * A refund or cancellation of a repaired gift (docs/repairs.md "Refunds and cancellations of a
 * repaired gift"): the repaired line carries no `_svc_*` properties, so a refund recognizes it by
 * its variant and its full discount, and gives back what the repair took — the budget unit, the
 * customer's redemption, analytics' refunded gift — once. A paid line of the same variant is not
 * the gift; another shop's refund changes nothing; a malformed amount is a 400. Both stores.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { orderRepairs, orders } from '../../src/db/schema.ts';
import { cancelledText } from '../give-backs/fixtures.ts';
import { deliver } from '../platform-webhooks/fixtures.ts';
import { testDbKind } from '../support/database.ts';
import type { TestApp } from '../support/test-app.ts';
import { connectedShop, giftRule, paidOrder, refundText, repairedLine, repairsOf, runJobs, repairWorld, repairCounters } from './fixtures.ts';

let t: TestApp;
let platform: PlatformStandin;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, platform, close } = await repairWorld());
});
afterAll(() => close());
const { budgetUsed, redemptionCount } = repairCounters(() => t);

const CUSTOMER = 5151;

/** The order line a repair's edit added, as the service recorded it. */
const addedLineOf = async (shopId: string, orderId: string) =>
  (await t.ctx.db.select({ lineItemId: orderRepairs.lineItemId }).from(orderRepairs).where(and(eq(orderRepairs.shopId, shopId), eq(orderRepairs.orderId, orderId))))[0]?.lineItemId ?? null;

/** A connected shop whose one budgeted rule (gift `gift`) was repaired onto a paid order of CUSTOMER. */
async function repairedOrder(gift: number) {
  const world = await connectedShop(t, platform, [giftRule('Free mug', gift, {}, { budget: { maxGifts: 5 } })]);
  const ruleId = world.ruleIds[0] ?? '';
  const { id } = await paidOrder(t, platform, world.domain, { customerId: CUSTOMER });
  await runJobs(t);
  expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'repaired' }]);
  expect(await budgetUsed(world.shop.id, ruleId)).toBe(1);
  expect(await redemptionCount(world.shop.id, ruleId)).toBe(1);
  const lineItemId = await addedLineOf(world.shop.id, id);
  // The line the edit added, as the stand-in's order holds it.
  expect(lineItemId).toBe(String(platform.orderEditing.ordersOf(world.domain).get(id)?.lineItems.at(-1)?.id));
  return { ...world, ruleId, orderId: id, lineItemId };
}

const refund = (domain: string, body: string, webhookId: string = randomUUID()) => deliver(t, body, { topic: 'refunds/create', domain, webhookId });

describe('a refund of a repaired gift', () => {
  it('gives back the budget unit and the redemption the repair took, counted as a refunded gift on the refund\'s day; once', async () => {
    const world = await repairedOrder(930);
    const [order] = await t.ctx.db.select({ budgetCharges: orders.budgetCharges }).from(orders).where(and(eq(orders.shopId, world.shop.id), eq(orders.id, world.orderId)));
    expect(order?.budgetCharges).toMatchObject([{ ruleId: world.ruleId, campaignId: world.campaignId, units: 1 }]);

    const body = refundText({ id: '8100001', orderId: world.orderId, lines: [{ variantId: 39072856, price: '199.00', quantity: 0 }, repairedLine(930, 1, world.lineItemId)] });
    const res = await refund(world.domain, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 1, budgetUnits: 1, redemptions: 1 } });
    expect(await budgetUsed(world.shop.id, world.ruleId)).toBe(0);
    expect(await redemptionCount(world.shop.id, world.ruleId)).toBe(0);

    // The same refund again, under another webhook id: a duplicate, nothing given twice.
    expect((await refund(world.domain, body)).json()).toEqual({ ok: true, duplicate: true });
    const again = refundText({ id: '8100002', orderId: world.orderId, lines: [repairedLine(930, 1, world.lineItemId)] });
    expect((await refund(world.domain, again)).json()).toMatchObject({ givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });

    const analytics = await t.api(world.shop, { method: 'GET', url: '/api/v1/analytics?from=2026-01-01&to=2026-01-31' });
    const stats = (analytics.json() as { campaignStats: Array<{ date: string; giftsGiven: number; giftsRefunded: number; ordersWithGiftsRefunded: number }> }).campaignStats;
    expect(stats).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ date: '2026-01-15', giftsGiven: 1, giftsRefunded: 0 }),
        expect.objectContaining({ date: '2026-01-20', giftsGiven: 0, giftsRefunded: 1, ordersWithGiftsRefunded: 1 }),
      ]),
    );
  });

  it('a paid line of the same variant, or one discounted only in part, is not the gift: nothing given back', async () => {
    const world = await repairedOrder(931);
    const paid = refundText({ id: '8200001', orderId: world.orderId, lines: [{ variantId: 931, price: '12.00' }] });
    expect((await refund(world.domain, paid)).json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
    const part = refundText({ id: '8200002', orderId: world.orderId, lines: [{ variantId: 931, price: '12.00', discount: '6.00', allocations: ['6.00'] }] });
    expect((await refund(world.domain, part)).json()).toMatchObject({ givenBack: { giftUnits: 0 } });
    // A free line naming a campaign by its properties is read by them, not taken for the repaired gift.
    const named = refundText({ id: '8200003', orderId: world.orderId, lines: [{ ...repairedLine(931), properties: [{ name: '_svc_campaign_id', value: 'cmp_elsewhere' }] }] });
    expect((await refund(world.domain, named)).json()).toMatchObject({ givenBack: { giftUnits: 0 } });
    // Another free variant is not the repaired one.
    const other = refundText({ id: '8200004', orderId: world.orderId, lines: [repairedLine(999)] });
    expect((await refund(world.domain, other)).json()).toMatchObject({ givenBack: { giftUnits: 0 } });
    expect(await budgetUsed(world.shop.id, world.ruleId)).toBe(1);
    expect(await redemptionCount(world.shop.id, world.ruleId)).toBe(1);

    // A free line of the variant that is not the line the repair added is not the gift either.
    const free = refundText({ id: '8200006', orderId: world.orderId, lines: [repairedLine(931)] });
    expect((await refund(world.domain, free)).json()).toMatchObject({ givenBack: { giftUnits: 0 } });
    // The added line itself, even discounted only in part, and more units than the repair added: capped at what the order carries.
    const gift = refundText({ id: '8200005', orderId: world.orderId, lines: [{ lineItemId: world.lineItemId, variantId: 931, quantity: 3, price: '12.00', discount: '6.00' }] });
    expect((await refund(world.domain, gift)).json()).toMatchObject({ givenBack: { giftUnits: 1, budgetUnits: 1, redemptions: 1 } });
  });

  it('another shop\'s refund of the order changes nothing; a malformed amount is a 400', async () => {
    const world = await repairedOrder(932);
    const stranger = await connectedShop(t, platform, [giftRule('Free mug', 932)]);
    const body = refundText({ id: '8300001', orderId: world.orderId, lines: [repairedLine(932)] });
    expect((await refund(stranger.domain, body)).json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
    const bad = refundText({ id: '8300002', orderId: world.orderId, lines: [{ ...repairedLine(932), price: 'twelve' }] });
    const res = await refund(world.domain, bad);
    expect(res.statusCode, res.body).toBe(400);
    expect(await budgetUsed(world.shop.id, world.ruleId)).toBe(1);
    expect(await redemptionCount(world.shop.id, world.ruleId)).toBe(1);
  });
});

describe('a cancellation of a repaired order', () => {
  it('gives back the repaired gift; a refund of the line afterwards gives nothing more', async () => {
    const world = await repairedOrder(933);
    const res = await deliver(t, cancelledText({ orderId: world.orderId }), { topic: 'orders/cancelled', domain: world.domain });
    expect(res.json()).toEqual({ ok: true, duplicate: false, givenBack: { giftUnits: 1, budgetUnits: 1, redemptions: 1 } });
    expect(await budgetUsed(world.shop.id, world.ruleId)).toBe(0);
    expect(await redemptionCount(world.shop.id, world.ruleId)).toBe(0);
    const after = refundText({ id: '8400001', orderId: world.orderId, lines: [repairedLine(933, 1, world.lineItemId)] });
    expect((await refund(world.domain, after)).json()).toMatchObject({ givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
  });

  it.skipIf(testDbKind() !== 'postgres')('racing refunds (one redelivered under two webhook ids) and a cancel give it back once', async () => {
    const world = await repairedOrder(934);
    const body = refundText({ id: '8500001', orderId: world.orderId, lines: [repairedLine(934, 1, world.lineItemId)] });
    const answers = await Promise.all([
      refund(world.domain, body),
      refund(world.domain, body),
      refund(world.domain, refundText({ id: '8500002', orderId: world.orderId, lines: [repairedLine(934, 1, world.lineItemId)] })),
      deliver(t, cancelledText({ orderId: world.orderId }), { topic: 'orders/cancelled', domain: world.domain }),
    ]);
    const given = answers.map((res) => (res.json() as { givenBack?: { giftUnits: number } }).givenBack?.giftUnits ?? 0);
    expect(given.reduce((sum, units) => sum + units, 0)).toBe(1);
    expect(await budgetUsed(world.shop.id, world.ruleId)).toBe(0);
    expect(await redemptionCount(world.shop.id, world.ruleId)).toBe(0);
  });
});

describe.skipIf(testDbKind() !== 'postgres')('a repair racing refunds of its order', () => {
  it('whichever commits first, the counters agree with what was given back, never below zero', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 936, {}, { budget: { maxGifts: 5 } })]);
    const ruleId = world.ruleIds[0] ?? '';
    const { id } = await paidOrder(t, platform, world.domain, { customerId: CUSTOMER });
    const refunds = ['8700001', '8700002', '8700003'].map((refundId) => refund(world.domain, refundText({ id: refundId, orderId: id, lines: [repairedLine(936)] })));
    await Promise.all([Promise.all(refunds), runJobs(t)]);
    // A refund of a free line of the gift's variant while the job edited the order cancels the
    // repair (given back); one before the job reserved, or after it recorded its line, is not the gift.
    const [repair] = await repairsOf(t, world.shop);
    expect(['repaired', 'cancelled']).toContain(repair?.status);
    const held = repair?.status === 'repaired' ? 1 : 0;
    expect(await budgetUsed(world.shop.id, ruleId)).toBe(held);
    expect(await redemptionCount(world.shop.id, ruleId)).toBe(held);
    // A refund of the added line gives back what is left, and nothing more.
    const late = await refund(world.domain, refundText({ id: '8700004', orderId: id, lines: [repairedLine(936, 1, await addedLineOf(world.shop.id, id))] }));
    expect((late.json() as { givenBack: { giftUnits: number } }).givenBack.giftUnits).toBe(held);
    expect(await budgetUsed(world.shop.id, ruleId)).toBe(0);
    expect(await redemptionCount(world.shop.id, ruleId)).toBe(0);
  });
});

describe('a repair the platform refuses', () => {
  it('leaves no budget charge on the order for a refund to find', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 935, {}, { budget: { maxGifts: 5 } })]);
    const { id } = await paidOrder(t, platform, world.domain, { customerId: CUSTOMER });
    const standin = platform.orderEditing.ordersOf(world.domain).get(id);
    if (standin) standin.editable = false;
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'failed' }]);
    const [order] = await t.ctx.db.select({ budgetCharges: orders.budgetCharges }).from(orders).where(and(eq(orders.shopId, world.shop.id), eq(orders.id, id)));
    expect(order?.budgetCharges).toEqual([]);
    const body = refundText({ id: '8600001', orderId: id, lines: [repairedLine(935)] });
    expect((await refund(world.domain, body)).json()).toMatchObject({ givenBack: { giftUnits: 0, budgetUnits: 0, redemptions: 0 } });
  });
});
