/**
 * GET /analytics' gift funnel (`ruleStats`: shown → added → ordered per rule) and average order
 * values with and without a gift: counted at intake, exact under concurrency, never twice for a
 * redelivered order, nothing of another shop.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localDateOf } from '../../src/analytics/calendar.ts';
import { orders, storefrontEvents } from '../../src/db/schema.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { deliver, domainOf, ordersPaidText, SECRET } from '../platform-webhooks/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

type RuleStat = { campaignId: string; ruleId: string; actionType: 'auto_add' | 'customer_choice' | null; offersShown: number; choicesShown: number; choicesSelected: number; giftsAdded: number; giftsRemoved: number; ordersWithGifts: number; giftsRepaired: number };
type Report = {
  ruleStats: RuleStat[];
  summary: { ordersWithGifts: number; revenueWithGifts: number; averageOrderValueWithGifts: number | null; averageOrderValueWithoutGifts: number | null; totalGiftsRepaired: number };
};

const VARIANT = 'gid://shopify/ProductVariant/11';
const DAY_MS = 86_400_000;

describe('GET /analytics: the gift funnel and average order values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
  });
  afterAll(() => t.close());

  // Events count on the day they are received: the range is the days around now, orders are placed now.
  const range = () => `from=${localDateOf(new Date(Date.now() - DAY_MS), 'UTC')}&to=${localDateOf(new Date(Date.now() + DAY_MS), 'UTC')}`;
  const report = async (shop: TestShop, query = '') => {
    const res = await t.api(shop, { method: 'GET', url: `/api/v1/analytics?${range()}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Report;
  };
  const send = async (shop: TestShop, events: Array<{ type: string; campaignId: string; ruleId: string }>) => {
    const res = await t.api(shop, { method: 'POST', url: '/api/v1/events', payload: { visitorId: 'v1', events: events.map((event) => ({ ...event, variantId: VARIANT })) } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { count: number }).count;
  };
  const event = (type: string, c: GiftCampaign, rule = 0) => ({ type, campaignId: c.campaignId, ruleId: c.ruleIds[rule] ?? '' });
  const giftLine = (c: GiftCampaign, rule = 0) => ({ gift: { campaignId: c.campaignId, ruleId: c.ruleIds[rule] } });
  const placed = (body: ReturnType<typeof order>) => postOrder(t, shop.id, { ...body, completedAt: new Date().toISOString() });
  // The fixtures' rules add their gift automatically: each add is the offer shown.
  const stat = (c: GiftCampaign, rule: number, counts: Partial<RuleStat>): RuleStat => ({
    campaignId: c.campaignId,
    ruleId: c.ruleIds[rule] ?? '',
    actionType: 'auto_add',
    offersShown: counts.giftsAdded ?? 0,
    choicesShown: 0,
    choicesSelected: 0,
    giftsAdded: 0,
    giftsRemoved: 0,
    ordersWithGifts: 0,
    giftsRepaired: 0,
    ...counts,
  });

  let shop: TestShop;
  let promo: GiftCampaign;
  let other: GiftCampaign;
  beforeEach(async () => {
    shop = await t.createShop('scale');
    promo = await createGiftCampaign(t, shop.id, 2);
    other = await createGiftCampaign(t, shop.id);
  });

  it('counts each rule from shown to ordered, and averages orders with and without a gift', async () => {
    const shown = [event('choice_shown', promo), event('choice_shown', promo), event('choice_shown', promo), event('choice_selected', promo)];
    expect(await send(shop, [...shown, event('gift_added', promo), event('gift_added', promo), event('gift_removed', promo), event('gift_added', promo, 1), event('gift_added', other)])).toBe(9);
    // Two gift lines of rule 0 are one order of it; rule 1's line in the same order another; one order without a gift.
    for (const body of [
      order({ total: 5000, lines: [{}, giftLine(promo), giftLine(promo), giftLine(promo, 1)] }),
      order({ total: 3001, lines: [{}, giftLine(promo)] }),
      order({ total: 2000 }),
      order({ total: 1000 }),
    ]) {
      expect((await placed(body)).statusCode).toBe(200);
    }
    const { ruleStats, summary } = await report(shop);
    expect(ruleStats).toEqual(
      [
        stat(promo, 0, { choicesShown: 3, choicesSelected: 1, giftsAdded: 2, giftsRemoved: 1, ordersWithGifts: 2 }),
        stat(promo, 1, { giftsAdded: 1, ordersWithGifts: 1 }),
        stat(other, 0, { giftsAdded: 1 }),
      ].sort((a, b) => (a.campaignId === b.campaignId ? (a.ruleId < b.ruleId ? -1 : 1) : a.campaignId < b.campaignId ? -1 : 1)),
    );
    // (50.00 + 30.01) / 2 = 40.005 rounds to 40.01; (20.00 + 10.00) / 2 = 15.
    expect(summary).toMatchObject({ ordersWithGifts: 2, revenueWithGifts: 80.01, averageOrderValueWithGifts: 40.01, averageOrderValueWithoutGifts: 15, totalGiftsRepaired: 0 });
    // campaignId narrows the funnel to that campaign's rules; the summary stays shop-wide.
    const narrowed = await report(shop, `&campaignId=${other.campaignId}`);
    expect(narrowed.ruleStats).toEqual([stat(other, 0, { giftsAdded: 1 })]);
    expect(narrowed.summary).toEqual(summary);
  });

  it("shows an automatic gift by adding it and a choice by showing it, by the rule's action type when the event came", async () => {
    const choose = { ...rule('Choose one'), options: { ...rule().options, actionType: 'customer_choice' } };
    const imported = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign('Mixed', { rules: [rule('Automatic'), choose] })] } });
    expect(imported.statusCode, imported.body).toBe(200);
    const campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
    const read = async () => (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` })).json() as { campaign: { rules: Array<{ id: string; options: Record<string, unknown> }> } & Record<string, unknown> };
    const stored = (await read()).campaign;
    const mixed: GiftCampaign = { campaignId, ruleIds: stored.rules.map((r) => r.id) };
    const [automatic, chosen] = [0, 1];

    // A choice_shown of an automatic rule is not its showing; a gift_added of a choice rule is not the choice's.
    await send(shop, [event('gift_added', mixed, automatic), event('gift_added', mixed, automatic), event('choice_shown', mixed, automatic)]);
    await send(shop, [...[1, 2, 3].map(() => event('choice_shown', mixed, chosen)), event('choice_selected', mixed, chosen), event('gift_added', mixed, chosen)]);
    const byRule = (stats: RuleStat[]) => new Map(stats.map((row) => [row.ruleId, row]));
    let rows = byRule((await report(shop, `&campaignId=${campaignId}`)).ruleStats);
    expect(rows.get(mixed.ruleIds[automatic] ?? '')).toEqual(stat(mixed, automatic, { giftsAdded: 2, choicesShown: 1, offersShown: 2 }));
    expect(rows.get(mixed.ruleIds[chosen] ?? '')).toEqual(stat(mixed, chosen, { actionType: 'customer_choice', choicesShown: 3, choicesSelected: 1, giftsAdded: 1, offersShown: 3 }));

    // An order (and its redelivery) moves "ordered" only.
    const body = { ...order({ id: 'ord-funnel-shown', lines: [{}, giftLine(mixed, chosen)] }), completedAt: new Date().toISOString() };
    for (const duplicate of [false, true]) expect((await postOrder(t, shop.id, body)).json()).toMatchObject({ duplicate });

    // The choice rule becomes automatic: earlier events keep their count, its adds count from now.
    const put = await t.admin({
      method: 'PUT',
      url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}`,
      payload: { ...campaign('Mixed'), rules: stored.rules.map((r, i) => ({ ...(i === chosen ? rule('Choose one') : rule('Automatic')), id: r.id })) },
    });
    expect(put.statusCode, put.body).toBe(200);
    await send(shop, [event('gift_added', mixed, chosen), event('choice_shown', mixed, chosen)]);
    rows = byRule((await report(shop, `&campaignId=${campaignId}`)).ruleStats);
    expect(rows.get(mixed.ruleIds[chosen] ?? '')).toEqual(stat(mixed, chosen, { choicesShown: 4, choicesSelected: 1, giftsAdded: 2, offersShown: 4, ordersWithGifts: 1 }));

    // A deleted rule keeps its counts and has no action type.
    expect((await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` })).statusCode).toBe(200);
    rows = byRule((await report(shop, `&campaignId=${campaignId}`)).ruleStats);
    expect(rows.get(mixed.ruleIds[automatic] ?? '')).toEqual(stat(mixed, automatic, { actionType: null, giftsAdded: 2, choicesShown: 1, offersShown: 2 }));
    // Another shop sees none of it.
    expect((await report(await t.createShop('scale'), `&campaignId=${campaignId}`)).ruleStats).toEqual([]);
  });

  it('answers from the rollup alone: deleting raw events and orders changes nothing', async () => {
    await send(shop, [event('choice_shown', promo), event('gift_added', promo)]);
    await placed(order({ lines: [{}, giftLine(promo)] }));
    const before = await report(shop);
    await t.ctx.db.delete(storefrontEvents).where(eq(storefrontEvents.shopId, shop.id));
    await t.ctx.db.delete(orders).where(eq(orders.shopId, shop.id));
    expect(await report(shop)).toEqual(before);
    expect(before.ruleStats).toEqual([stat(promo, 0, { choicesShown: 1, giftsAdded: 1, ordersWithGifts: 1 })]);
  });

  it('counts an order once however often it is delivered: again, at the same instant, or as a platform webhook redelivery', async () => {
    const body = { ...order({ id: 'ord-funnel-dup', total: 4000, lines: [{}, giftLine(promo)] }), completedAt: new Date().toISOString() };
    const answers = await Promise.all(Array.from({ length: 6 }, () => postOrder(t, shop.id, body)));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((res) => (res.json() as { duplicate: boolean }).duplicate)).toHaveLength(5);

    const domain = await domainOf(t, shop.id);
    const properties = [
      { name: '_svc_campaign_id', value: promo.campaignId },
      { name: '_svc_rule_id', value: promo.ruleIds[0] ?? '' },
    ];
    const paid = ordersPaidText({ id: '5000000000001', totalPrice: '40.00', processedAt: new Date().toISOString(), lines: [{}, { price: '0.00', properties }] });
    const deliveries = await Promise.all([1, 2, 3].map(() => deliver(t, paid, { topic: 'orders/paid', domain, webhookId: 'wh-funnel-1' })));
    expect(deliveries.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect((await deliver(t, paid, { topic: 'orders/paid', domain })).statusCode).toBe(200);

    const { ruleStats, summary } = await report(shop);
    expect(ruleStats).toEqual([stat(promo, 0, { ordersWithGifts: 2 })]);
    expect(summary).toMatchObject({ ordersWithGifts: 2, revenueWithGifts: 80, averageOrderValueWithGifts: 40, averageOrderValueWithoutGifts: null });
  });

  it('stays exact under concurrent orders and event batches on the same rows', async () => {
    const batches = Array.from({ length: 8 }, (_, i) => send(shop, [event('choice_shown', promo), event('gift_added', promo), event(i % 2 ? 'gift_added' : 'choice_shown', promo, 1)]));
    const gifts = Array.from({ length: 8 }, (_, i) => placed(order({ total: 1000 + i, lines: [{}, giftLine(promo), giftLine(promo, i % 2)] })));
    const plain = Array.from({ length: 4 }, () => placed(order({ total: 500 })));
    const answers = await Promise.all([...batches, ...gifts, ...plain]);
    expect(answers.slice(0, 8)).toEqual(Array.from({ length: 8 }, () => 3));
    const { ruleStats, summary } = await report(shop);
    expect(ruleStats).toEqual([
      stat(promo, 0, { choicesShown: 8, giftsAdded: 8, ordersWithGifts: 8 }),
      stat(promo, 1, { choicesShown: 4, giftsAdded: 4, ordersWithGifts: 4 }),
    ].sort((a, b) => (a.ruleId < b.ruleId ? -1 : 1)));
    // 1000 … 1007 minor units: 8028 / 8 = 1003.5, rounded to 10.04.
    expect(summary).toMatchObject({ ordersWithGifts: 8, revenueWithGifts: 80.28, averageOrderValueWithGifts: 10.04, averageOrderValueWithoutGifts: 5 });
  });

  it("counts nothing for another shop's rules, a rule of another campaign or an unknown rule", async () => {
    const stranger = await t.createShop('scale');
    const theirs = await createGiftCampaign(t, stranger.id);
    // The stranger names our rules; we name a rule under the wrong campaign and an unknown one.
    expect(await send(stranger, [event('gift_added', promo), event('choice_shown', promo, 1)])).toBe(0);
    expect(await send(shop, [{ type: 'gift_added', campaignId: other.campaignId, ruleId: promo.ruleIds[0] ?? '' }, { type: 'gift_added', campaignId: promo.campaignId, ruleId: 'rul_unknown' }])).toBe(0);
    expect(await send(shop, [event('gift_added', theirs)])).toBe(0);
    // An order of the stranger's carrying our gift attributes is an ordinary order there.
    expect((await postOrder(t, stranger.id, { ...order({ lines: [{}, giftLine(promo)] }), completedAt: new Date().toISOString() })).statusCode).toBe(200);
    expect((await report(shop)).ruleStats).toEqual([]);
    const theirReport = await report(stranger, `&campaignId=${promo.campaignId}`);
    expect(theirReport.ruleStats).toEqual([]);
    expect(theirReport.summary).toMatchObject({ ordersWithGifts: 0, averageOrderValueWithGifts: null, averageOrderValueWithoutGifts: 25 });
    expect((await report(stranger)).ruleStats).toEqual([]);
  });

  it('puts events on the day they were received in the shop’s timezone, outside a range that ends before', async () => {
    await send(shop, [event('gift_added', promo)]);
    const yesterday = localDateOf(new Date(Date.now() - DAY_MS), 'UTC');
    const res = await t.api(shop, { method: 'GET', url: `/api/v1/analytics?from=${yesterday}&to=${yesterday}` });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Report).ruleStats).toEqual([]);
    expect((await report(shop)).ruleStats).toEqual([stat(promo, 0, { giftsAdded: 1 })]);
  });

  it('answers 400 for a bad range and 401 without a key, as every analytics read', async () => {
    expect((await t.api(shop, { method: 'GET', url: '/api/v1/analytics?from=2026-02-01&to=2026-01-01' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/analytics?${range()}` })).statusCode).toBe(401);
  });
});
