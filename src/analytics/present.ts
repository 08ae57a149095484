/** Rollups (minor units) as SPEC's analytics response (decimal units, every day of the range). */
import { datesBetween } from './calendar.ts';
import { toDecimalAmount } from './money.ts';
import type { AnalyticsResponse } from './schema.ts';
import type { AnalyticsRange, AnalyticsRollups, DailyTotalRow } from './store.ts';

/**
 * Builds the response: `dailyTotals` holds every date of the range (zeros where nothing was
 * sold), `campaignStats` only the days and campaigns with orders or refunds, `ruleStats` the
 * funnel of the rules of `range.campaignId` (all when absent); sums and averages are taken over
 * integers and converted once.
 *
 * @example
 *   presentAnalytics(rollups, { from: '2026-01-01', to: '2026-01-07' }, 'USD').dailyTotals.length; // 7
 */
export function presentAnalytics(
  rollups: AnalyticsRollups,
  range: AnalyticsRange,
  currency: string,
): AnalyticsResponse {
  const byDay = new Map(rollups.days.map((row) => [row.day, row]));
  const money = (minor: number) => toDecimalAmount(minor, currency);
  // Rounded to the minor unit: an average of $10.00 and $10.01 is $10.01 (half away from zero).
  const average = (revenue: number, orders: number) => (orders === 0 ? null : money(Math.round(revenue / orders)));
  const sums = { totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0 };
  const dailyTotals = datesBetween(range.from, range.to).map((date) => {
    const row: DailyTotalRow = byDay.get(date) ?? { day: date, totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: 0 };
    for (const key of ['totalOrders', 'totalRevenue', 'ordersWithGifts', 'revenueWithGifts'] as const) sums[key] += row[key];
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
  const ruleStats = rollups.rules.filter((row) => range.campaignId === undefined || row.campaignId === range.campaignId);
  return {
    dailyTotals,
    campaignStats,
    ruleStats,
    summary: {
      totalOrders: sums.totalOrders,
      totalGifts: rollups.totalGifts,
      totalRevenue: money(sums.totalRevenue),
      totalGiftsRefunded: rollups.totalGiftsRefunded,
      ordersWithGifts: sums.ordersWithGifts,
      revenueWithGifts: money(sums.revenueWithGifts),
      averageOrderValueWithGifts: average(sums.revenueWithGifts, sums.ordersWithGifts),
      averageOrderValueWithoutGifts: average(sums.totalRevenue - sums.revenueWithGifts, sums.totalOrders - sums.ordersWithGifts),
      totalGiftsRepaired: rollups.rules.reduce((total, row) => total + row.giftsRepaired, 0),
    },
  };
}
