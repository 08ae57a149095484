/**
 * Concurrent order intake on TWO app instances sharing one PostgreSQL database and one Redis.
 * Gift budgets (docs/promotions.md "Budgets"): about a hundred orders at once, split across
 * both, grant exactly the budget — never one unit more — report the rest as over budget,
 * deadlock nowhere, and leave the spent rule out of GET /rules on both instances. Per-customer
 * limits ("Per-customer limits"): one customer's concurrent orders each get their own place in
 * the count, so exactly the orders past the limit are reported in `overLimit`. PostgreSQL
 * project only: PGlite admits one process and runs one transaction at a time, so nothing would
 * overlap.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/database.ts';
import { giftBudgetUsage, outbox, webhookEndpoints } from '../../src/db/schema.ts';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { createTestDatabase, POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const BUDGET = 37;
const ORDERS = 100;

describe.skipIf(testDbKind() !== 'postgres')('budgets and per-customer limits under concurrent intake on two instances', () => {
  let first: TestApp;
  let second: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const settings = { RATE_LIMIT_SCALE: '100' };
    first = await createTestApp(settings, { database });
    second = await createTestApp(settings, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
    shop = await first.createShop('scale');
    await first.ctx.db
      .insert(webhookEndpoints)
      .values({ shopId: shop.id, id: 'whe_race', url: 'https://hooks.example.com/r', events: ['order.converted'], secret: 'whsec_dGVzdA==' });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const rulesOn = async (app: TestApp) => {
    const res = await app.api(shop, { method: 'GET', url: '/api/v1/rules' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { rules: Array<{ id: string }> }).rules.map((r) => r.id);
  };

  it(`${POSTGRES_ONLY}grants exactly the budget across ${ORDERS} concurrent orders on two instances, reports the rest, and both instances drop the rule`, async () => {
    const tree = { type: 'cart.item_count_gte', value: 1 };
    const capped = { ...rule('Capped', tree), options: { ...rule('Capped', tree).options, budget: { maxGifts: BUDGET, window: 'total' } } };
    // The campaign budget is never reached; every order locks its row and the rule's, in key order.
    const [campaignId = ''] = await importCampaigns(first, shop, [
      liveCampaign('Race', [capped, rule('Open', tree, { gifts: [901] })], { budget: { maxGifts: 100_000, window: 'month' } }),
    ]);
    const [cappedId = '', openId = ''] = (await readCampaign(first, shop, campaignId)).rules.map((r) => r.id);
    // Warm both instances' caches: the spend must evict them.
    expect(await rulesOn(first)).toContain(cappedId);
    expect(await rulesOn(second)).toContain(cappedId);

    const syncsOf = async () =>
      (
        await first.ctx.db
          .select({ id: outbox.id })
          .from(outbox)
          .where(and(eq(outbox.shopId, shop.id), eq(outbox.kind, 'discount_sync')))
      ).length;
    const syncsBefore = await syncsOf();

    const now = new Date().toISOString();
    const bodies = Array.from({ length: ORDERS }, (_, i) =>
      order({
        id: `race-${i}`,
        completedAt: now,
        lines: [
          { quantity: 1 + (i % 3), gift: { campaignId, ruleId: cappedId } },
          ...(i % 2 === 0 ? [{ quantity: 1, gift: { campaignId, ruleId: openId } }] : []),
        ],
      }),
    );
    const cappedUnits = bodies.reduce((sum, body) => sum + (body.lines[0]?.quantity ?? 0), 0);
    const results = await Promise.all(bodies.map((body, i) => postOrder(i % 2 === 0 ? first : second, shop.id, body)));
    expect(results.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));

    const counters = await first.ctx.db
      .select({ scope: giftBudgetUsage.scope, scopeId: giftBudgetUsage.scopeId, used: giftBudgetUsage.used })
      .from(giftBudgetUsage)
      .where(eq(giftBudgetUsage.shopId, shop.id));
    const openUnits = bodies.filter((_, i) => i % 2 === 0).length;
    expect(counters.find((c) => c.scope === 'rule')).toEqual({ scope: 'rule', scopeId: cappedId, used: BUDGET });
    // The campaign counts what its rules were granted: the capped rule's 37 and every open unit.
    expect(counters.find((c) => c.scope === 'campaign')).toEqual({ scope: 'campaign', scopeId: campaignId, used: BUDGET + openUnits });

    const events = await first.ctx.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.shopId, shop.id), eq(outbox.eventType, 'order.converted')));
    expect(events).toHaveLength(ORDERS);
    const over = events.flatMap((event) => (event.payload as { data: { overBudget: Array<{ ruleId: string; quantity: number }> } }).data.overBudget);
    expect(over.every((entry) => entry.ruleId === cappedId)).toBe(true);
    const overUnits = over.reduce((sum, entry) => sum + entry.quantity, 0);
    expect(overUnits).toBe(cappedUnits - BUDGET);
    // Exactly one order spent the budget: one discount sync queued.
    expect(await syncsOf()).toBe(syncsBefore + 1);

    expect(await rulesOn(first)).toEqual([openId]);
    expect(await rulesOn(second)).toEqual([openId]);
  });
  it(`${POSTGRES_ONLY}one customer's 30 concurrent orders of a rule limited to 1 on two instances: count 30, exactly one order not reported, the others at counts 2…30`, async () => {
    const tree = { type: 'cart.item_count_gte', value: 1 };
    const once = { ...rule('Once', tree), options: { ...rule('Once', tree).options, maxPerCustomer: 1 } };
    const [campaignId = ''] = await importCampaigns(first, shop, [liveCampaign('Once each', [once])]);
    const [onceId = ''] = (await readCampaign(first, shop, campaignId)).rules.map((r) => r.id);
    const count = 30;
    const bodies = Array.from({ length: count }, (_, i) => order({ id: `limit-race-${i}`, customerId: '4242', lines: [{}, { gift: { campaignId, ruleId: onceId } }] }));
    const results = await Promise.all(bodies.map((body, i) => postOrder(i % 2 === 0 ? first : second, shop.id, body)));
    expect(results.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));

    const redemptions = await first.api(shop, { method: 'GET', url: '/api/v1/redemptions?customerId=4242' });
    expect((redemptions.json() as { redemptions: Array<{ ruleId: string; count: number }> }).redemptions).toEqual([expect.objectContaining({ ruleId: onceId, count })]);
    const events = await first.ctx.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.shopId, shop.id), eq(outbox.eventType, 'order.converted')));
    const mine = events
      .map((event) => (event.payload as { data: { orderId: string; overLimit: Array<{ ruleId: string; count: number; maxPerCustomer: number }> } }).data)
      .filter((data) => data.orderId.startsWith('limit-race-'));
    expect(mine).toHaveLength(count);
    expect(mine.filter((data) => data.overLimit.length === 0)).toHaveLength(1);
    const counts = mine.flatMap((data) => data.overLimit.map((entry) => entry.count)).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: count - 1 }, (_, i) => i + 2));
  });
});
