/**
 * Reading the daily rollups that order intake maintains. Analytics never touch raw orders:
 * a 90-day report is at most 90 rows of daily_totals plus the campaign rows of those days,
 * found by primary-key range scans, however many orders the shop has.
 */
import { and, asc, between, eq, sql, sum } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/database.ts';
import { dailyCampaignStats, dailyTotals } from '../db/schema.ts';
import { bytewise } from '../db/collation.ts';
import { readRuleFunnel } from './funnel.ts';
import type { RuleFunnelRow } from './funnel.ts';

export type DailyTotalRow = {
  day: string;
  totalOrders: number;
  totalRevenue: number;
  ordersWithGifts: number;
  revenueWithGifts: number;
  ordersWithGiftsRefunded: number;
};
export type CampaignDayRow = {
  day: string;
  campaignId: string;
  ordersWithGifts: number;
  giftsGiven: number;
  revenueWithGifts: number;
  giftsRefunded: number;
  ordersWithGiftsRefunded: number;
};
/** Rollups of a date range, amounts in minor units. */
export type AnalyticsRollups = { days: DailyTotalRow[]; campaignDays: CampaignDayRow[]; totalGifts: number; totalGiftsRefunded: number; rules: RuleFunnelRow[] };

export type AnalyticsRange = { from: string; to: string; campaignId?: string | undefined };

/**
 * The rollup rows of `range` (both ends included). `totalGifts` (and `totalGiftsRefunded`)
 * count every campaign's gifts even when `campaignId` narrows campaignDays; `rules` holds every
 * campaign's rules (the caller narrows them).
 *
 * @example
 *   const rollups = await readAnalytics(ctx.db, shop.id, { from: '2026-01-01', to: '2026-01-31' });
 */
export async function readAnalytics(db: Queryable, shopId: string, range: AnalyticsRange): Promise<AnalyticsRollups> {
  const inRange = (table: typeof dailyTotals | typeof dailyCampaignStats) =>
    and(eq(table.shopId, shopId), between(table.day, range.from, range.to));

  const daysQuery = db
    .select({
      day: dailyTotals.day,
      totalOrders: dailyTotals.totalOrders,
      totalRevenue: dailyTotals.totalRevenue,
      ordersWithGifts: dailyTotals.ordersWithGifts,
      revenueWithGifts: dailyTotals.revenueWithGifts,
      ordersWithGiftsRefunded: dailyTotals.ordersWithGiftsRefunded,
    })
    .from(dailyTotals)
    .where(inRange(dailyTotals))
    .orderBy(asc(dailyTotals.day));
  const campaignQuery = db
    .select({
      day: dailyCampaignStats.day,
      campaignId: dailyCampaignStats.campaignId,
      ordersWithGifts: dailyCampaignStats.ordersWithGifts,
      giftsGiven: dailyCampaignStats.giftsGiven,
      revenueWithGifts: dailyCampaignStats.revenueWithGifts,
      giftsRefunded: dailyCampaignStats.giftsRefunded,
      ordersWithGiftsRefunded: dailyCampaignStats.ordersWithGiftsRefunded,
    })
    .from(dailyCampaignStats)
    .where(
      range.campaignId === undefined
        ? inRange(dailyCampaignStats)
        : and(inRange(dailyCampaignStats), eq(dailyCampaignStats.campaignId, range.campaignId)),
    )
    .orderBy(asc(dailyCampaignStats.day), asc(bytewise(dailyCampaignStats.campaignId)));

  if (range.campaignId === undefined) {
    const [days, campaignDays, rules] = await Promise.all([daysQuery, campaignQuery, readRuleFunnel(db, shopId, range)]);
    return {
      days,
      campaignDays,
      rules,
      totalGifts: campaignDays.reduce((total, row) => total + row.giftsGiven, 0),
      totalGiftsRefunded: campaignDays.reduce((total, row) => total + row.giftsRefunded, 0),
    };
  }
  const giftsQuery = db
    .select({ gifts: sum(dailyCampaignStats.giftsGiven).mapWith(Number), refunded: sum(dailyCampaignStats.giftsRefunded).mapWith(Number) })
    .from(dailyCampaignStats)
    .where(inRange(dailyCampaignStats));
  const [days, campaignDays, gifts, rules] = await Promise.all([daysQuery, campaignQuery, giftsQuery, readRuleFunnel(db, shopId, range)]);
  return { days, campaignDays, totalGifts: gifts[0]?.gifts ?? 0, totalGiftsRefunded: gifts[0]?.refunded ?? 0, rules };
}

/** One campaign's gifts of an order on its day: what order intake and a repaired gift add. */
export type CampaignDayGifts = { campaignId: string; ordersWithGifts: number; giftsGiven: number; revenueWithGifts: number };

/**
 * Adds gifts to campaigns' rows of `day` (created when missing), in the caller's transaction.
 *
 * @example await addCampaignDayGifts(tx, shop.id, '2026-11-27', [{ campaignId, ordersWithGifts: 1, giftsGiven: 1, revenueWithGifts: 5000 }]);
 */
export async function addCampaignDayGifts(tx: Tx, shopId: string, day: string, rows: readonly CampaignDayGifts[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(dailyCampaignStats)
    .values(rows.map((row) => ({ shopId, day, ...row })))
    .onConflictDoUpdate({
      target: [dailyCampaignStats.shopId, dailyCampaignStats.day, dailyCampaignStats.campaignId],
      set: {
        ordersWithGifts: sql`${dailyCampaignStats.ordersWithGifts} + excluded.orders_with_gifts`,
        // Saturates at the column's 2^31 - 1 rather than failing the order (docs/operations.md).
        giftsGiven: sql`least(${dailyCampaignStats.giftsGiven}::bigint + excluded.gifts_given, 2147483647)`,
        revenueWithGifts: sql`${dailyCampaignStats.revenueWithGifts} + excluded.revenue_with_gifts`,
      },
    });
}
