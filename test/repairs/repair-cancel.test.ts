/**
 * A repair overtaken by the order's cancellation or a refund of its gift (docs/repairs.md
 * "Cancelled before the repair ended"): in each state that has not ended — pending, reserved,
 * interrupted, editing — the budget unit and the redemption come back exactly once and the order
 * is not edited afterwards. The delivery's answer counts what the ended repair gave back (an
 * `editing` one, only marked, gives back later: 0 in the answer). Another shop's cancellation
 * or refund changes nothing. Both stores.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { orderRepairs, outbox } from '../../src/db/schema.ts';
import { runOrderRepair } from '../../src/repairs/job.ts';
import { cancelledText } from '../give-backs/fixtures.ts';
import { variant } from '../evaluate/helpers.ts';
import { deliver } from '../platform-webhooks/fixtures.ts';
import type { TestApp } from '../support/test-app.ts';
import { connectedShop, giftRule, paidOrder, refundText, repairedLine, repairsOf, repairWorld, runJobs, repairCounters } from './fixtures.ts';

let t: TestApp;
let platform: PlatformStandin;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, platform, close } = await repairWorld());
});
afterAll(() => close());
const { budgetUsed, redemptionCount } = repairCounters(() => t);

const CUSTOMER = 6161;
const dueNow = (shopId: string) => t.ctx.db.update(outbox).set({ nextAttemptAt: new Date() }).where(and(eq(outbox.shopId, shopId), eq(outbox.kind, 'order_repair'), eq(outbox.status, 'pending')));
const cancel = (domain: string, orderId: string, webhookId?: string) => deliver(t, cancelledText({ orderId }), { topic: 'orders/cancelled', domain, ...(webhookId ? { webhookId } : {}) });
const given = (budgetUnits: number, redemptions: number, giftUnits = 0) => ({ ok: true, duplicate: false, givenBack: { giftUnits, budgetUnits, redemptions } });

/** A connected shop with one budgeted rule and a paid order of CUSTOMER that lacks its gift. */
async function planned(gift: number) {
  const world = await connectedShop(t, platform, [giftRule('Free mug', gift, {}, { budget: { maxGifts: 5 } })]);
  const ruleId = world.ruleIds[0] ?? '';
  const { id } = await paidOrder(t, platform, world.domain, { customerId: CUSTOMER });
  const held = async () => ({ budget: await budgetUsed(world.shop.id, ruleId), redemptions: await redemptionCount(world.shop.id, ruleId) });
  const edits = () => platform.orderEditing.ordersOf(world.domain).get(id)?.edits ?? [];
  return { ...world, ruleId, orderId: id, held, edits };
}

/** Leaves the order's repair `reserved`: budget and redemption taken, the platform throttled. */
async function reserved(gift: number) {
  const world = await planned(gift);
  platform.orderEditing.faults.inject({ kind: 'throttled', retryAfterSeconds: 1 });
  await runJobs(t);
  expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'reserved' }]);
  expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
  return world;
}

/** Leaves the order's repair `interrupted`: a crash during the platform calls, found by the next run. */
async function interrupted(gift: number) {
  const world = await reserved(gift);
  await t.ctx.db.update(orderRepairs).set({ status: 'editing' }).where(and(eq(orderRepairs.shopId, world.shop.id), eq(orderRepairs.orderId, world.orderId)));
  await dueNow(world.shop.id);
  await runJobs(t);
  expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'interrupted' }]);
  expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
  return world;
}

describe('an orders/cancelled while the repair has not ended', () => {
  it('pending: the repair is cancelled before anything is taken, and the job edits nothing', async () => {
    const world = await planned(950);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'pending' }]);
    const res = await cancel(world.domain, world.orderId);
    expect(res.statusCode, res.body).toBe(200);
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: world.orderId, status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
    expect(world.edits()).toEqual([]);
  });

  it('reserved: what it took comes back once (the cancellation redelivered gives nothing more), and the retry edits nothing', async () => {
    const world = await reserved(951);
    const res = await cancel(world.domain, world.orderId, 'cancel-951');
    expect(res.statusCode, res.body).toBe(200);
    // The answer counts what the repair gave back; the order carried no gift line, so no gift unit.
    expect(res.json()).toEqual(given(1, 1));
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
    // Redelivered under its webhook id, or under another: a duplicate.
    expect((await cancel(world.domain, world.orderId, 'cancel-951')).json()).toEqual({ ok: true, duplicate: true });
    expect((await cancel(world.domain, world.orderId)).json()).toEqual({ ok: true, duplicate: true });
    await dueNow(world.shop.id);
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
    expect(world.edits()).toEqual([]);
  });

  it('interrupted: what it held comes back, and the row says cancelled', async () => {
    const world = await interrupted(952);
    expect((await cancel(world.domain, world.orderId)).json()).toEqual(given(1, 1));
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
  });

  it('editing: the cancellation marks the row, and the job gives back when its edit ends', async () => {
    const world = await planned(953);
    const { config } = t.ctx;
    let answer: ReturnType<typeof cancel> | undefined;
    // The cancellation arrives while the job is on the platform, just before the commit.
    const during: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('orderEditCommit') && answer === undefined) {
        answer = cancel(world.domain, world.orderId);
        // Only marked: the job gives back when its edit ends, so this answer counts nothing of it.
        expect((await answer).json()).toEqual(given(0, 0));
        const [row] = await t.ctx.db.select().from(orderRepairs).where(and(eq(orderRepairs.shopId, world.shop.id), eq(orderRepairs.orderId, world.orderId)));
        expect(row).toMatchObject({ status: 'editing', cancelRequestedAt: expect.any(Date) });
        expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
      }
      return fetch(input, init);
    };
    const options = { db: t.ctx.db, caches: t.ctx, secret: config.platformAppSecret, adminApiUrl: config.platformAdminApiUrl, fetch: during };
    const result = await runOrderRepair(options, world.shop.id, { orderId: world.orderId, ruleId: world.ruleId }, 1);
    expect(result.ok).toBe(true);
    expect(answer).toBeDefined();
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
    // The edit did reach the order; a later run or a cancellation again gives nothing more.
    expect(world.edits()).toHaveLength(1);
    await runOrderRepair(options, world.shop.id, { orderId: world.orderId, ruleId: world.ruleId }, 2);
    await cancel(world.domain, world.orderId);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
  });

  it('editing, found by a later run (a crash after the mark): given back once', async () => {
    const world = await reserved(954);
    await t.ctx.db.update(orderRepairs).set({ status: 'editing' }).where(and(eq(orderRepairs.shopId, world.shop.id), eq(orderRepairs.orderId, world.orderId)));
    expect((await cancel(world.domain, world.orderId)).json()).toEqual(given(0, 0));
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'editing' }]);
    expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
    await dueNow(world.shop.id);
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
  });

  it('another shop\'s cancellation of the order id changes nothing', async () => {
    const world = await reserved(955);
    const stranger = await connectedShop(t, platform, [giftRule('Free mug', 955)]);
    expect((await cancel(stranger.domain, world.orderId)).json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'reserved' }]);
    expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
  });

  it('with a gift line of another rule: the answer is the line\'s give-back and the repair\'s together', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 956, {}, { budget: { maxGifts: 5 } }), giftRule('Free cap', 957, {}, { budget: { maxGifts: 5 } })]);
    const [mug = '', cap = ''] = world.ruleIds;
    // The order carries the mug; the cap is repaired, and the platform throttles the edit.
    const { id } = await paidOrder(t, platform, world.domain, { customerId: CUSTOMER, gift: { campaignId: world.campaignId, ruleId: mug, variantId: 956 } });
    platform.orderEditing.faults.inject({ kind: 'throttled', retryAfterSeconds: 1 });
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ ruleId: cap, status: 'reserved' }]);
    expect((await cancel(world.domain, id)).json()).toEqual(given(2, 2, 1));
    for (const ruleId of [mug, cap]) {
      expect(await budgetUsed(world.shop.id, ruleId)).toBe(0);
      expect(await redemptionCount(world.shop.id, ruleId)).toBe(0);
    }
  });
});

describe('a refunds/create of the gift while the repair has not ended', () => {
  const refund = (domain: string, body: string, webhookId?: string) => deliver(t, body, { topic: 'refunds/create', domain, ...(webhookId ? { webhookId } : {}) });

  it('interrupted: the refund ends the repair and answers what it gave back; redelivered, a duplicate', async () => {
    const world = await interrupted(958);
    const body = refundText({ id: '8900001', orderId: world.orderId, lines: [repairedLine(958)] });
    const res = await refund(world.domain, body, 'refund-958');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(given(1, 1));
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'cancelled' }]);
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
    expect((await refund(world.domain, body, 'refund-958')).json()).toEqual({ ok: true, duplicate: true });
    expect((await refund(world.domain, body)).json()).toEqual({ ok: true, duplicate: true });
    // Another refund of the line finds the repair ended: nothing more.
    expect((await refund(world.domain, refundText({ id: '8900002', orderId: world.orderId, lines: [repairedLine(958)] }))).json()).toEqual(given(0, 0));
    expect(await world.held()).toEqual({ budget: 0, redemptions: 0 });
  });

  it('reserved: the edit has not reached the order, so a refund of a free line of the variant is not its gift (0, still reserved)', async () => {
    const world = await reserved(959);
    expect((await refund(world.domain, refundText({ id: '8900003', orderId: world.orderId, lines: [repairedLine(959)] }))).json()).toEqual(given(0, 0));
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'reserved' }]);
    expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
  });

  it('another shop\'s refund of the order id changes nothing', async () => {
    const world = await interrupted(962);
    const stranger = await connectedShop(t, platform, [giftRule('Free mug', 962)]);
    const body = refundText({ id: '8900004', orderId: world.orderId, lines: [repairedLine(962)] });
    expect((await refund(stranger.domain, body)).json()).toEqual({ ok: true, duplicate: false, ignored: 'unknown_order' });
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'interrupted' }]);
    expect(await world.held()).toEqual({ budget: 1, redemptions: 1 });
  });
});

describe('a fixed amount off a gift of several units', () => {
  const fixed = (gift: number) => ({
    ...giftRule('Two mugs, 5.00 off each', gift, {}, { discountType: 'fixed_amount', discountValue: 500, discountTitle: 'Gift' }),
    giftConfig: { type: 'fixed', gifts: [{ variantId: variant(gift), quantity: 2 }], fallbackOnOOS: false },
  });

  it.each([
    ['per_unit', 0],
    ['per_line', 1],
  ] as const)('the platform reading fixedValue %s: the line ends 10.00 off (%i whole-line updates)', async (reading, calls) => {
    platform.orderEditing.fixedReading = reading;
    try {
      const world = await connectedShop(t, platform, [fixed(960 + calls)]);
      const { id } = await paidOrder(t, platform, world.domain);
      const before = platform.requests.length;
      await runJobs(t);
      expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'repaired', quantity: 2 }]);
      const line = platform.orderEditing.ordersOf(world.domain).get(id)?.lineItems.at(-1);
      // Per unit, 5.00 × 2; per line, the whole line's 10.00.
      expect(line).toMatchObject({ quantity: 2, discount: { fixedValue: reading === 'per_unit' ? '5.00' : '10.00' } });
      const updates = platform.requests.slice(before).filter((request) => JSON.stringify(request).includes('mutation RepairDiscountWholeLine')).length;
      expect(updates).toBe(calls);
    } finally {
      platform.orderEditing.fixedReading = 'per_unit';
    }
  });
});
