/**
 * The analytics query answered the slow way, by scanning a shop's raw orders and their
 * gift lines, for the benchmark to set beside the rollup answer (and to check both agree).
 * It counts gift lines the way order intake does: per order and campaign, the campaign's
 * gift quantities, and the whole order total as that campaign's revenue.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/database.ts';
import type { AnalyticsRange, AnalyticsRollups } from '../src/analytics/store.ts';
import { rowsOf } from '../scripts/bench-env.ts';

type Numeric = string | number;

/**
 * Rollup-shaped rows computed from `orders` for one shop and range.
 *
 * @example
 *   const rollups = await analyticsFromRawOrders(db, 'shp_bench000000', { from: '2026-01-01', to: '2026-03-31' });
 */
export async function analyticsFromRawOrders(db: Database, shopId: string, range: AnalyticsRange): Promise<AnalyticsRollups> {
  const days = await rowsOf<{ day: string; total_orders: Numeric; total_revenue: Numeric; orders_with_gifts: Numeric; revenue_with_gifts: Numeric }>(
    db,
    sql`SELECT day::text AS day, count(*) AS total_orders, sum(total) AS total_revenue,
               count(*) FILTER (WHERE gift_lines > 0) AS orders_with_gifts,
               coalesce(sum(total) FILTER (WHERE gift_lines > 0), 0) AS revenue_with_gifts
          FROM orders
         WHERE shop_id = ${shopId} AND day BETWEEN ${range.from} AND ${range.to}
         GROUP BY day ORDER BY day`,
  );
  const campaignDays = await rowsOf<{ day: string; campaign_id: string; orders_with_gifts: Numeric; gifts_given: Numeric; revenue_with_gifts: Numeric }>(
    db,
    sql`WITH per_order AS (
          SELECT o.day, o.id, o.total, l->'attributes'->>'_svc_campaign_id' AS campaign_id, sum((l->>'quantity')::int) AS gifts
            FROM orders o, jsonb_array_elements(o.payload->'lines') l
           WHERE o.shop_id = ${shopId} AND o.day BETWEEN ${range.from} AND ${range.to} AND o.gift_lines > 0
             AND l->'attributes' ? '_svc_campaign_id'
           GROUP BY o.day, o.id, o.total, campaign_id)
        SELECT day::text AS day, campaign_id, count(*) AS orders_with_gifts, sum(gifts) AS gifts_given, sum(total) AS revenue_with_gifts
          FROM per_order
         WHERE ${range.campaignId ?? null}::text IS NULL OR campaign_id = ${range.campaignId ?? null}
         GROUP BY day, campaign_id ORDER BY day, campaign_id`,
  );
  const mapped = campaignDays.map((row) => ({
    day: row.day,
    campaignId: row.campaign_id,
    ordersWithGifts: Number(row.orders_with_gifts),
    giftsGiven: Number(row.gifts_given),
    revenueWithGifts: Number(row.revenue_with_gifts),
    // The benchmark's shop has no refunds (give-backs/give-back.ts would count them on their own day).
    giftsRefunded: 0,
    ordersWithGiftsRefunded: 0,
  }));
  return {
    days: days.map((row) => ({
      day: row.day,
      totalOrders: Number(row.total_orders),
      totalRevenue: Number(row.total_revenue),
      ordersWithGifts: Number(row.orders_with_gifts),
      revenueWithGifts: Number(row.revenue_with_gifts),
      ordersWithGiftsRefunded: 0,
    })),
    campaignDays: mapped,
    totalGifts: mapped.reduce((sum, row) => sum + row.giftsGiven, 0),
    totalGiftsRefunded: 0,
  };
}
