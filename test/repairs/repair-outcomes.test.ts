/**
 * Repairs that do not go the happy way (docs/repairs.md "The job"), and the list route's error and
 * cross-shop cases: a refused edit gives the budget and the redemption back, a throttled platform
 * is retried without taking twice, an unconnected shop is skipped, a per-customer limit holds, an
 * interrupted edit is never sent again. `GET …/repairs` shows one shop only, on the admin API and
 * in the merchant admin. Both stores.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { orderRepairs, outbox } from '../../src/db/schema.ts';
import { openLoginLink } from '../support/login-link.ts';
import type { TestApp } from '../support/test-app.ts';
import { connectedShop, giftRule, paidOrder, repairJobs, repairsOf, runJobs, repairWorld, repairCounters } from './fixtures.ts';

let t: TestApp;
let platform: PlatformStandin;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, platform, close } = await repairWorld());
});
afterAll(() => close());
const { budgetUsed, redemptionCount } = repairCounters(() => t);

/** Makes the shop's retrying repair jobs due now (the schedule's first retry is 5 s away). */
const dueNow = (shopId: string) => t.ctx.db.update(outbox).set({ nextAttemptAt: new Date() }).where(and(eq(outbox.shopId, shopId), eq(outbox.kind, 'order_repair'), eq(outbox.status, 'pending')));

describe('a repair the platform refuses', () => {
  it('ends failed with the platform\'s reason, and gives back the budget unit and the redemption it took', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 910, {}, { budget: { maxGifts: 5 } })]);
    const ruleId = world.ruleIds[0] ?? '';
    const { id } = await paidOrder(t, platform, world.domain, { customerId: 4242 });
    const order = platform.orderEditing.ordersOf(world.domain).get(id);
    if (order) order.editable = false;
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'failed', detail: 'orderEditBegin: The order cannot be edited.' }]);
    expect(await budgetUsed(world.shop.id, ruleId)).toBe(0);
    expect(await redemptionCount(world.shop.id, ruleId)).toBe(0);
  });

  it('throttled: the job is retried, the reservation kept once, and the retry repairs', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 911, {}, { budget: { maxGifts: 5 } })]);
    const ruleId = world.ruleIds[0] ?? '';
    const { id } = await paidOrder(t, platform, world.domain, { customerId: 4243 });
    platform.orderEditing.faults.inject({ kind: 'throttled', retryAfterSeconds: 1 });
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ status: 'reserved', detail: expect.stringContaining('HTTP 429') }]);
    expect(await budgetUsed(world.shop.id, ruleId)).toBe(1);
    await dueNow(world.shop.id);
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'repaired' }]);
    expect(await budgetUsed(world.shop.id, ruleId)).toBe(1);
    expect(await redemptionCount(world.shop.id, ruleId)).toBe(1);
    expect(platform.orderEditing.ordersOf(world.domain).get(id)?.edits).toHaveLength(1);
  });

  it('an edit interrupted mid-way is not sent again: the row says interrupted', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 912)]);
    const { id } = await paidOrder(t, platform, world.domain);
    await t.ctx.db.update(orderRepairs).set({ status: 'editing' }).where(and(eq(orderRepairs.shopId, world.shop.id), eq(orderRepairs.orderId, id)));
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'interrupted' }]);
    expect(platform.orderEditing.ordersOf(world.domain).get(id)?.edits).toEqual([]);
  });
});

describe('what a repair does not give', () => {
  it('a shop without a platform connection: skipped, nothing taken', async () => {
    const world = await connectedShop(t, platform, [giftRule('Free mug', 913)], false);
    const { id } = await paidOrder(t, platform, world.domain);
    await runJobs(t);
    expect(await repairsOf(t, world.shop)).toMatchObject([{ orderId: id, status: 'skipped_not_connected' }]);
  });

  it('a per-customer limit: of two orders of one customer planned before either ran, one gift', async () => {
    const world = await connectedShop(t, platform, [giftRule('Once', 914, {}, { maxPerCustomer: 1 })]);
    const ruleId = world.ruleIds[0] ?? '';
    await paidOrder(t, platform, world.domain, { customerId: 777 });
    await paidOrder(t, platform, world.domain, { customerId: 777 });
    await runJobs(t);
    expect((await repairsOf(t, world.shop)).map((r) => r.status).sort()).toEqual(['repaired', 'skipped_limit']);
    expect(await redemptionCount(world.shop.id, ruleId)).toBe(1);
    // Now over the limit: the next order of the customer is not planned at all; a guest is never given a limited gift.
    const third = await paidOrder(t, platform, world.domain, { customerId: 777 });
    const guest = await paidOrder(t, platform, world.domain, { customerId: null });
    const listed = (await repairsOf(t, world.shop)).map((r) => r.orderId);
    expect(listed).not.toContain(third.id);
    expect(listed).not.toContain(guest.id);
  });
});

describe('GET /admin/v1/shops/:shopId/repairs', () => {
  it('lists one shop\'s repairs only, on the admin API and in the merchant admin', async () => {
    const mine = await connectedShop(t, platform, [giftRule('Mine', 915)]);
    const theirs = await connectedShop(t, platform, [giftRule('Theirs', 916)]);
    const { id } = await paidOrder(t, platform, mine.domain);
    expect((await repairsOf(t, mine.shop)).map((r) => r.orderId)).toEqual([id]);
    expect(await repairsOf(t, theirs.shop)).toEqual([]);

    const link = await t.admin({ method: 'POST', url: `/admin/v1/shops/${theirs.shop.id}/login-links` });
    const signedIn = await openLoginLink(t.app, (link.json() as { url: string }).url);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    const merchant = await t.app.inject({ method: 'GET', url: '/app/api/v1/repairs', headers: { cookie } });
    expect(merchant.statusCode, merchant.body).toBe(200);
    expect(merchant.json()).toEqual({ repairs: [] });
    const anonymous = await t.app.inject({ method: 'GET', url: '/app/api/v1/repairs' });
    expect(anonymous.statusCode).toBe(401);
    // The other shop's repair jobs stay its own.
    expect(await repairJobs(t, theirs.shop)).toEqual([]);
  });

  it('pages newest first with limit and before; a bad limit or before is a 400 naming it; an unknown shop a 404', async () => {
    const world = await connectedShop(t, platform, [giftRule('Paged', 917)]);
    const first = await paidOrder(t, platform, world.domain);
    const second = await paidOrder(t, platform, world.domain);
    const base = `/admin/v1/shops/${world.shop.id}/repairs`;
    const page = await t.admin({ method: 'GET', url: `${base}?limit=1` });
    const [newest] = (page.json() as { repairs: Array<{ orderId: string; createdAt: string }> }).repairs;
    expect(newest?.orderId).toBe(second.id);
    const next = await t.admin({ method: 'GET', url: `${base}?limit=1&before=${encodeURIComponent(newest?.createdAt ?? '')}` });
    expect((next.json() as { repairs: Array<{ orderId: string }> }).repairs.map((r) => r.orderId)).toEqual([first.id]);
    for (const query of ['limit=0', 'limit=501', 'limit=x', 'before=yesterday']) {
      const bad = await t.admin({ method: 'GET', url: `${base}?${query}` });
      expect(bad.statusCode, query).toBe(400);
      expect((bad.json() as { path: unknown[] }).path[0], query).toBe(query.split('=')[0]);
    }
    const unknown = await t.admin({ method: 'GET', url: '/admin/v1/shops/shp_000000000000nope/repairs' });
    expect(unknown.statusCode).toBe(404);
  });
});
