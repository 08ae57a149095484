import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCampaignStats, dailyTotals, orders, outbox, redemptions, webhookEndpoints } from '../../src/db/schema.ts';
import { POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createGiftCampaign, order, postOrder } from './fixtures.ts';
import type { GiftCampaign } from './fixtures.ts';
import { bytewise } from '../../src/db/collation.ts';

describe('POST /admin/v1/shops/:shopId/orders', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let promo: GiftCampaign;
  let theirs: GiftCampaign;

  beforeAll(async () => {
    t = await createTestApp();
    [shop, other] = await Promise.all([t.createShop('pro'), t.createShop('scale')]);
    promo = await createGiftCampaign(t, shop.id, 2);
    theirs = await createGiftCampaign(t, other.id, 1);
    await t.ctx.db
      .insert(webhookEndpoints)
      .values({ shopId: shop.id, id: 'whe_orders', url: 'https://hooks.example.com/o', events: ['order.converted'], secret: 'whsec_dGVzdA==' });
  });
  afterAll(() => t.close());

  const totalsOf = async (shopId: string, day: string) =>
    (await t.ctx.db.select().from(dailyTotals).where(and(eq(dailyTotals.shopId, shopId), eq(dailyTotals.day, day))))[0];
  const statsOf = (shopId: string, day: string) =>
    t.ctx.db
      .select()
      .from(dailyCampaignStats)
      .where(and(eq(dailyCampaignStats.shopId, shopId), eq(dailyCampaignStats.day, day)))
      .orderBy(dailyCampaignStats.campaignId);
  const redemptionsOf = (shopId: string, customerId: string) =>
    t.ctx.db
      .select()
      .from(redemptions)
      .where(and(eq(redemptions.shopId, shopId), eq(redemptions.customerId, customerId)))
      .orderBy(bytewise(redemptions.ruleId));

  it('records an order with its gift lines in rollups, redemptions and the outbox', async () => {
    const body = order({
      customerId: '1001',
      completedAt: '2026-01-10T12:00:00.000Z',
      total: 5000,
      lines: [
        { price: 5000 },
        { quantity: 2, gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] } },
        { quantity: 1, gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] } },
        { quantity: 1, gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[1] } },
      ],
    });
    const res = await postOrder(t, shop.id, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, duplicate: false });

    expect(await totalsOf(shop.id, '2026-01-10')).toMatchObject({ totalOrders: 1, totalRevenue: 5000, ordersWithGifts: 1, revenueWithGifts: 5000 });
    expect(await statsOf(shop.id, '2026-01-10')).toEqual([
      { shopId: shop.id, day: '2026-01-10', campaignId: promo.campaignId, ordersWithGifts: 1, giftsGiven: 4, revenueWithGifts: 5000, giftsRefunded: 0, ordersWithGiftsRefunded: 0 },
    ]);
    // One redemption per (customer, rule) per order, however many lines the rule's gift took.
    const counted = await redemptionsOf(shop.id, '1001');
    expect(counted.map((r) => [r.ruleId, r.count])).toEqual(
      [[promo.ruleIds[0], 1], [promo.ruleIds[1], 1]].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    const [stored] = await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, shop.id), eq(orders.id, body.id)));
    expect(stored).toMatchObject({ day: '2026-01-10', giftLines: 3, total: 5000, customerId: '1001' });
    const converted = await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.shopId, shop.id), eq(outbox.eventType, 'order.converted')));
    expect(converted).toHaveLength(1);
    expect(converted[0]?.payload).toMatchObject({
      type: 'order.converted',
      data: { shopId: shop.id, orderId: body.id, customerId: '1001', total: 5000, campaignIds: [promo.campaignId] },
    });
  });

  it('counts an order without gifts in the day totals only', async () => {
    const res = await postOrder(t, shop.id, order({ completedAt: '2026-01-11T12:00:00.000Z', total: 1234 }));
    expect(res.json()).toEqual({ ok: true, duplicate: false });
    expect(await totalsOf(shop.id, '2026-01-11')).toMatchObject({ totalOrders: 1, totalRevenue: 1234, ordersWithGifts: 0, revenueWithGifts: 0 });
    expect(await statsOf(shop.id, '2026-01-11')).toEqual([]);
  });

  it('counts the same order id once and says duplicate the second time', async () => {
    const body = order({ customerId: '2002', completedAt: '2026-01-12T12:00:00.000Z', lines: [{ gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] } }] });
    expect((await postOrder(t, shop.id, body)).json()).toEqual({ ok: true, duplicate: false });
    const again = await postOrder(t, shop.id, { ...body, total: 999_999 });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await totalsOf(shop.id, '2026-01-12')).toMatchObject({ totalOrders: 1, totalRevenue: 2500 });
    expect((await redemptionsOf(shop.id, '2002'))[0]?.count).toBe(1);
  });

  it('treats a numeric order id and its string form as the same order', async () => {
    const body = order({ completedAt: '2026-01-13T12:00:00.000Z' });
    const numericId = 880_000 + Math.floor(Math.random() * 1000);
    expect((await postOrder(t, shop.id, { ...body, id: numericId })).json()).toEqual({ ok: true, duplicate: false });
    expect((await postOrder(t, shop.id, { ...body, id: String(numericId) })).json()).toEqual({ ok: true, duplicate: true });
  });

  it.skipIf(testDbKind() !== 'postgres')(`${POSTGRES_ONLY}counts the same order sent concurrently exactly once`, async () => {
    const body = order({ customerId: '3003', completedAt: '2026-01-14T12:00:00.000Z', total: 700, lines: [{ gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[1] } }] });
    const results = await Promise.all(Array.from({ length: 6 }, () => postOrder(t, shop.id, body)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const duplicates = results.map((r) => (r.json() as { duplicate: boolean }).duplicate);
    expect(duplicates.filter((d) => !d)).toHaveLength(1);
    expect(await totalsOf(shop.id, '2026-01-14')).toMatchObject({ totalOrders: 1, totalRevenue: 700, ordersWithGifts: 1 });
    expect(await statsOf(shop.id, '2026-01-14')).toMatchObject([{ ordersWithGifts: 1, giftsGiven: 1 }]);
    expect((await redemptionsOf(shop.id, '3003'))[0]?.count).toBe(1);
  });

  it.skipIf(testDbKind() !== 'postgres')(`${POSTGRES_ONLY}loses no update when different orders of one day arrive concurrently`, async () => {
    const bodies = Array.from({ length: 8 }, (_, i) =>
      order({ customerId: '4004', completedAt: `2026-01-16T1${i}:00:00.000Z`, total: 100 + i, lines: [{ gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] } }] }),
    );
    const results = await Promise.all(bodies.map((b) => postOrder(t, shop.id, b)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await totalsOf(shop.id, '2026-01-16')).toMatchObject({ totalOrders: 8, totalRevenue: 828, ordersWithGifts: 8, revenueWithGifts: 828 });
    const [redeemed] = await redemptionsOf(shop.id, '4004');
    expect(redeemed).toMatchObject({ count: 8, lastRedeemedAt: new Date('2026-01-16T17:00:00.000Z') });
  });

  it('keeps the latest completion as lastRedeemedAt when orders arrive out of order', async () => {
    const gift = { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] };
    await postOrder(t, shop.id, order({ customerId: '5005', completedAt: '2026-01-20T10:00:00.000Z', lines: [{ gift }] }));
    await postOrder(t, shop.id, order({ customerId: '5005', completedAt: '2026-01-18T10:00:00.000Z', lines: [{ gift }] }));
    const [redeemed] = await redemptionsOf(shop.id, '5005');
    expect(redeemed).toMatchObject({ count: 2, lastRedeemedAt: new Date('2026-01-20T10:00:00.000Z') });
  });

  it('reduces a Customer gid to its digits', async () => {
    const gift = { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] };
    await postOrder(t, shop.id, order({ customerId: 'gid://shopify/Customer/6006', lines: [{ gift }] }));
    expect(await redemptionsOf(shop.id, '6006')).toHaveLength(1);
  });

  it('ignores gift attributes naming another shop’s campaign or rule', async () => {
    const res = await postOrder(
      t,
      shop.id,
      order({
        customerId: '7007',
        completedAt: '2026-01-21T12:00:00.000Z',
        lines: [
          { gift: { campaignId: theirs.campaignId, ruleId: theirs.ruleIds[0] } },
          { gift: { campaignId: promo.campaignId, ruleId: theirs.ruleIds[0] } },
        ],
      }),
    );
    expect(res.json()).toEqual({ ok: true, duplicate: false });
    expect(await statsOf(shop.id, '2026-01-21')).toMatchObject([{ campaignId: promo.campaignId, giftsGiven: 1 }]);
    expect(await redemptionsOf(shop.id, '7007')).toEqual([]);
    expect(await statsOf(other.id, '2026-01-21')).toEqual([]);
  });

  it('counts gifts of a guest order but no redemption', async () => {
    await postOrder(t, shop.id, order({ completedAt: '2026-01-22T12:00:00.000Z', lines: [{ gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] } }] }));
    expect(await statsOf(shop.id, '2026-01-22')).toMatchObject([{ giftsGiven: 1 }]);
  });

  it('puts the same order id of two shops in each shop once', async () => {
    const body = order({ id: 'shared-id-1', currency: 'USD' });
    expect((await postOrder(t, shop.id, body)).json()).toEqual({ ok: true, duplicate: false });
    expect((await postOrder(t, other.id, body)).json()).toEqual({ ok: true, duplicate: false });
  });

  it.each([
    ['a missing id', { id: undefined }, ['id']],
    ['an empty id', { id: '' }, ['id']],
    ['a missing completedAt', { completedAt: undefined }, ['completedAt']],
    ['a completedAt without zone', { completedAt: '2026-01-01T10:00:00' }, ['completedAt']],
    ['a completedAt that is not a date', { completedAt: 'yesterday' }, ['completedAt']],
    ['a negative total', { total: -1 }, ['total']],
    ['a fractional total', { total: 12.5 }, ['total']],
    ['a total given as a string', { total: '2500' }, ['total']],
    ['an unknown currency', { currency: 'XYZ1' }, ['currency']],
    ['another currency than the shop’s', { currency: 'EUR' }, ['currency']],
    ['lines not an array', { lines: {} }, ['lines']],
    ['a line with quantity 0', { lines: [{ productId: '1', variantId: '2', quantity: 0, price: 1 }] }, ['lines', 0, 'quantity']],
    ['a line with a bad variant id', { lines: [{ productId: '1', variantId: 'gid://shopify/Product/2', quantity: 1, price: 1 }] }, ['lines', 0, 'variantId']],
    ['a line with non-string attributes', { lines: [{ productId: '1', variantId: '2', quantity: 1, price: 1, attributes: { a: 1 } }] }, ['lines', 0, 'attributes', 'a']],
    ['a customerId with letters', { customerId: 'abc' }, ['customerId']],
  ] as const)('answers 400 for %s', async (_name, change, path) => {
    const body: Record<string, unknown> = { ...order({}), ...change };
    for (const key of Object.keys(change)) if ((change as Record<string, unknown>)[key] === undefined) delete body[key];
    const res = await postOrder(t, shop.id, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid order body', path });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/orders`,
      headers: { 'content-type': 'application/json' },
      payload: '{"id":',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 for an unknown shop and 401 without the admin token', async () => {
    const missing = await postOrder(t, 'shp_nope', order({}));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(errorBody('Shop not found', 'not_found'));
    const anonymous = await t.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, payload: order({}) });
    expect(anonymous.statusCode).toBe(401);
    const withApiKey = await t.api(shop, { method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, payload: order({}) });
    expect(withApiKey.statusCode).toBe(401);
  });

  it('answers 405 with Allow for another method', async () => {
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders` });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});
