/** Rollups (minor units) as SPEC's analytics response (decimal units, every day of the range). */
import { datesBetween } from './calendar.ts';
import { toDecimalAmount } from './money.ts';
import type { AnalyticsResponse } from './schema.ts';
import type { AnalyticsRollups, DailyTotalRow } from './store.ts';

/**
 * Builds the response: `dailyTotals` holds every date of the range (zeros where nothing was
 * sold), `campaignStats` only the days and campaigns with orders or refunds; sums are taken over
 * integers and converted once.
 *
 * @example
 *   presentAnalytics(rollups, { from: '2026-01-01', to: '2026-01-07' }, 'USD').dailyTotals.length; // 7
 */
export function presentAnalytics(
  rollups: AnalyticsRollups,
  range: { from: string; to: string },
  currency: string,
): AnalyticsResponse {
  const byDay = new Map(rollups.days.map((row) => [row.day, row]));
  const money = (minor: number) => toDecimalAmount(minor, currency);
  let totalOrders = 0;
  let totalRevenue = 0;
  const dailyTotals = datesBetween(range.from, range.to).map((date) => {
    const row: DailyTotalRow = byDay.get(date) ?? { day: date, totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: 0 };
    totalOrders += row.totalOrders;
    totalRevenue += row.totalRevenue;
    return {
      date,
      totalOrders: row.totalOrders,
      totalRevenue: money(row.totalRevenue),
      ordersWithGifts: row.ordersWithGifts,
      revenueWithGifts: money(row.revenueWithGifts),
      ordersWithGiftsRefunded: row.ordersWithGiftsRefunded,
    };
  });
  const campaignStats = rollups.campaignDays.map((row) => ({
    date: row.day,
    campaignId: row.campaignId,
    ordersWithGifts: row.ordersWithGifts,
    giftsGiven: row.giftsGiven,
    revenueWithGifts: money(row.revenueWithGifts),
    giftsRefunded: row.giftsRefunded,
    ordersWithGiftsRefunded: row.ordersWithGiftsRefunded,
  }));
  return { dailyTotals, campaignStats, summary: { totalOrders, totalGifts: rollups.totalGifts, totalRevenue: money(totalRevenue), totalGiftsRefunded: rollups.totalGiftsRefunded } };
}
