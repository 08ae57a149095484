import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema.ts';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

type Analytics = {
  dailyTotals: Array<{ date: string; totalOrders: number; totalRevenue: number; ordersWithGifts: number; revenueWithGifts: number }>;
  campaignStats: Array<{ date: string; campaignId: string; ordersWithGifts: number; giftsGiven: number; revenueWithGifts: number }>;
  ruleStats: unknown[];
  summary: { totalOrders: number; totalGifts: number; totalRevenue: number };
};

/** The summary's gift fields of a range without gifts, refunds or repairs. */
const noGifts = { totalGifts: 0, totalGiftsRefunded: 0, ordersWithGifts: 0, revenueWithGifts: 0, averageOrderValueWithGifts: null, totalGiftsRepaired: 0 };

/** The summary of the USD shop's three orders below. */
const usdSummary = {
  ...noGifts,
  totalOrders: 3,
  totalGifts: 6,
  totalRevenue: 12.64,
  ordersWithGifts: 2,
  revenueWithGifts: 12.54,
  // (0.20 + 12.34) / 2 and 0.10 / 1.
  averageOrderValueWithGifts: 6.27,
  averageOrderValueWithoutGifts: 0.1,
};

describe('GET /analytics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (shop: TestShop, query: string) => t.api(shop, { method: 'GET', url: `/api/v1/analytics?${query}` });
  const read = async (shop: TestShop, query: string) => {
    const res = await get(shop, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Analytics;
  };
  const day = (report: Analytics, date: string) => report.dailyTotals.find((d) => d.date === date);

  describe('validation', () => {
    let shop: TestShop;
    beforeAll(async () => {
      shop = await t.createShop('scale');
    });

    it.each([
      ['from missing', 'to=2026-01-31', ['from']],
      ['to missing', 'from=2026-01-01', ['to']],
      ['both missing', '', ['from']],
      ['an empty from', 'from=&to=2026-01-31', ['from']],
      ['a single-digit month', 'from=2026-1-01&to=2026-01-31', ['from']],
      ['a compact date', 'from=20260101&to=2026-01-31', ['from']],
      ['a timestamp', 'from=2026-01-01T00:00:00Z&to=2026-01-31', ['from']],
      ['February 30', 'from=2026-02-01&to=2026-02-30', ['to']],
      ['February 29 of a common year', 'from=2025-02-29&to=2025-03-01', ['from']],
      ['month 13', 'from=2026-13-01&to=2026-13-02', ['from']],
      ['day 00', 'from=2026-01-00&to=2026-01-02', ['from']],
      ['from after to', 'from=2026-02-01&to=2026-01-31', ['from']],
      ['91 days', 'from=2026-01-01&to=2026-04-01', ['to']],
      ['a repeated from', 'from=2026-01-01&from=2026-01-02&to=2026-01-31', ['from']],
      ['an empty campaignId', 'from=2026-01-01&to=2026-01-31&campaignId=', ['campaignId']],
    ] as const)('answers 400 for %s', async (_name, query, path) => {
      const res = await get(shop, query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid query parameters', path });
      expect(typeof (res.json() as { issue: unknown }).issue).toBe('string');
    });

    it('accepts exactly 90 days (both ends included), a leap day and a single day', async () => {
      expect((await read(shop, 'from=2026-01-01&to=2026-03-31')).dailyTotals).toHaveLength(90);
      expect((await read(shop, 'from=2028-02-29&to=2028-02-29')).dailyTotals).toHaveLength(1);
    });

    it('counts against the analytics rate row', async () => {
      const res = await get(shop, 'from=2026-01-01&to=2026-01-02');
      expect(res.headers['ratelimit-policy']).toMatch(/analytics/);
    });
  });

  describe('amounts', () => {
    let usd: TestShop;
    let promo: GiftCampaign;
    let other: GiftCampaign;

    beforeAll(async () => {
      usd = await t.createShop('scale');
      [promo, other] = [await createGiftCampaign(t, usd.id), await createGiftCampaign(t, usd.id)];
      const gift = (c: GiftCampaign, quantity = 1) => ({ quantity, gift: { campaignId: c.campaignId, ruleId: c.ruleIds[0] } });
      for (const body of [
        order({ completedAt: '2026-01-05T10:00:00Z', total: 10 }),
        order({ completedAt: '2026-01-05T11:00:00Z', total: 20, lines: [{}, gift(promo, 2)] }),
        order({ completedAt: '2026-01-07T11:00:00Z', total: 1234, lines: [{}, gift(promo), gift(other, 3)] }),
      ]) {
        expect((await postOrder(t, usd.id, body)).statusCode).toBe(200);
      }
    });

    it('answers in decimal units, sums taken exactly over integers', async () => {
      const report = await read(usd, 'from=2026-01-04&to=2026-01-08');
      expect(report.dailyTotals).toEqual([
        { date: '2026-01-04', totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: 0 },
        // 0.10 + 0.20 is 0.3 here, not 0.30000000000000004.
        { date: '2026-01-05', totalOrders: 2, totalRevenue: 0.3, ordersWithGifts: 1, revenueWithGifts: 0.2, ordersWithGiftsRefunded: 0 },
        { date: '2026-01-06', totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: 0 },
        { date: '2026-01-07', totalOrders: 1, totalRevenue: 12.34, ordersWithGifts: 1, revenueWithGifts: 12.34, ordersWithGiftsRefunded: 0 },
        { date: '2026-01-08', totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: 0 },
      ]);
      expect(report.campaignStats).toEqual(
        [
          { date: '2026-01-05', campaignId: promo.campaignId, ordersWithGifts: 1, giftsGiven: 2, revenueWithGifts: 0.2, giftsRefunded: 0, ordersWithGiftsRefunded: 0 },
          { date: '2026-01-07', campaignId: promo.campaignId, ordersWithGifts: 1, giftsGiven: 1, revenueWithGifts: 12.34, giftsRefunded: 0, ordersWithGiftsRefunded: 0 },
          { date: '2026-01-07', campaignId: other.campaignId, ordersWithGifts: 1, giftsGiven: 3, revenueWithGifts: 12.34, giftsRefunded: 0, ordersWithGiftsRefunded: 0 },
          // Byte order, as ids sort on every store (src/db/collation.ts).
        ].sort((a, b) => (a.date === b.date ? (a.campaignId < b.campaignId ? -1 : 1) : a.date < b.date ? -1 : 1)),
      );
      expect(report.summary).toEqual(usdSummary);
    });

    it('narrows campaignStats to campaignId, keeping dailyTotals and summary shop-wide', async () => {
      const report = await read(usd, `from=2026-01-04&to=2026-01-08&campaignId=${other.campaignId}`);
      expect(report.campaignStats).toEqual([
        { date: '2026-01-07', campaignId: other.campaignId, ordersWithGifts: 1, giftsGiven: 3, revenueWithGifts: 12.34, giftsRefunded: 0, ordersWithGiftsRefunded: 0 },
      ]);
      expect(report.dailyTotals).toHaveLength(5);
      expect(report.summary).toEqual(usdSummary);
    });

    it('answers from the rollups alone, never from raw orders', async () => {
      const before = await read(usd, 'from=2026-01-04&to=2026-01-08');
      await t.ctx.db.delete(orders).where(eq(orders.shopId, usd.id));
      expect(await read(usd, 'from=2026-01-04&to=2026-01-08')).toEqual(before);
    });

    it('shows nothing of another shop, even for its campaign id', async () => {
      const stranger = await t.createShop('scale');
      const report = await read(stranger, `from=2026-01-04&to=2026-01-08&campaignId=${promo.campaignId}`);
      expect(report.campaignStats).toEqual([]);
      expect(report.summary).toEqual({ ...noGifts, totalOrders: 0, totalRevenue: 0, averageOrderValueWithoutGifts: null });
      expect(report.ruleStats).toEqual([]);
    });

    it('uses whole units for JPY and three digits for KWD', async () => {
      const jpy = await t.createShop('scale', { currency: 'JPY' });
      const kwd = await t.createShop('scale', { currency: 'KWD' });
      await postOrder(t, jpy.id, order({ currency: 'JPY', completedAt: '2026-01-05T10:00:00Z', total: 1234 }));
      await postOrder(t, jpy.id, order({ currency: 'JPY', completedAt: '2026-01-05T11:00:00Z', total: 1 }));
      await postOrder(t, kwd.id, order({ currency: 'KWD', completedAt: '2026-01-05T10:00:00Z', total: 1234 }));
      expect(day(await read(jpy, 'from=2026-01-05&to=2026-01-05'), '2026-01-05')?.totalRevenue).toBe(1235);
      expect((await read(jpy, 'from=2026-01-05&to=2026-01-05')).summary.totalRevenue).toBe(1235);
      expect(day(await read(kwd, 'from=2026-01-05&to=2026-01-05'), '2026-01-05')?.totalRevenue).toBe(1.234);
      const usdForJpyShop = await postOrder(t, jpy.id, order({ currency: 'USD' }));
      expect(usdForJpyShop.statusCode).toBe(400);
    });

    it("uses the engine's ISO 4217 table where Intl's digits differ: HUF 2, IQD 3", async () => {
      const huf = await t.createShop('scale', { currency: 'HUF' });
      const iqd = await t.createShop('scale', { currency: 'IQD' });
      await postOrder(t, huf.id, order({ currency: 'HUF', completedAt: '2026-01-05T10:00:00Z', total: 1234 }));
      await postOrder(t, iqd.id, order({ currency: 'IQD', completedAt: '2026-01-05T10:00:00Z', total: 1234 }));
      expect((await read(huf, 'from=2026-01-05&to=2026-01-05')).summary.totalRevenue).toBe(12.34);
      expect((await read(iqd, 'from=2026-01-05&to=2026-01-05')).summary.totalRevenue).toBe(1.234);
    });
  });

  describe("days in the shop's timezone", () => {
    let ny: TestShop;
    beforeAll(async () => {
      ny = await t.createShop('scale', { timezone: 'America/New_York' });
      const at = (completedAt: string, total: number) => postOrder(t, ny.id, order({ completedAt, total }));
      for (const [completedAt, total] of [
        // 23:30 on Jan 10 and 00:30 on Jan 11, New York time (UTC-5).
        ['2026-01-11T04:30:00Z', 1],
        ['2026-01-11T05:30:00Z', 2],
        // Spring forward, Sunday 2026-03-08: 02:00 EST becomes 03:00 EDT.
        ['2026-03-08T04:30:00Z', 4], // 23:30 EST on Mar 7
        ['2026-03-08T05:30:00Z', 8], // 00:30 EST on Mar 8
        ['2026-03-09T03:30:00Z', 16], // 23:30 EDT on Mar 8
        ['2026-03-09T04:30:00Z', 32], // 00:30 EDT on Mar 9
        // Fall back, Sunday 2026-11-01: 01:30 happens twice.
        ['2026-11-01T05:30:00Z', 64], // 01:30 EDT on Nov 1
        ['2026-11-01T06:30:00Z', 128], // 01:30 EST on Nov 1
        ['2026-11-02T04:30:00Z', 256], // 23:30 EST on Nov 1
        ['2026-11-02T05:30:00Z', 512], // 00:30 EST on Nov 2
      ] as const) {
        expect((await at(completedAt, total)).statusCode).toBe(200);
      }
    });

    it('puts 23:30 and 00:30 local on their own local days', async () => {
      const report = await read(ny, 'from=2026-01-10&to=2026-01-11');
      expect(report.dailyTotals.map((d) => [d.date, d.totalRevenue])).toEqual([
        ['2026-01-10', 0.01],
        ['2026-01-11', 0.02],
      ]);
    });

    it('counts the spring-forward day (23 hours) right', async () => {
      const report = await read(ny, 'from=2026-03-07&to=2026-03-09');
      expect(report.dailyTotals.map((d) => [d.date, d.totalOrders, d.totalRevenue])).toEqual([
        ['2026-03-07', 1, 0.04],
        ['2026-03-08', 2, 0.24],
        ['2026-03-09', 1, 0.32],
      ]);
    });

    it('counts the fall-back day (25 hours) right', async () => {
      const report = await read(ny, 'from=2026-11-01&to=2026-11-02');
      expect(report.dailyTotals.map((d) => [d.date, d.totalOrders, d.totalRevenue])).toEqual([
        ['2026-11-01', 3, 4.48],
        ['2026-11-02', 1, 5.12],
      ]);
    });
  });

  it('runs the same handler on the admin mount for any plan', async () => {
    const free = await t.createShop('free');
    await postOrder(t, free.id, order({ completedAt: '2026-01-05T10:00:00Z', total: 500 }));
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${free.id}/analytics?from=2026-01-05&to=2026-01-05` });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Analytics).summary).toEqual({ ...noGifts, totalOrders: 1, totalRevenue: 5, averageOrderValueWithoutGifts: 5 });
  });
});
