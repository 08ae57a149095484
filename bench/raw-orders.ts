/**
 * The analytics query answered the slow way, by scanning a shop's raw orders and their
 * gift lines, for the benchmark to set beside the rollup answer (and to check both agree).
 * It counts gift lines the way order intake does: per order and campaign, the campaign's
 * gift quantities, and the whole order total as that campaign's revenue.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../src/db/database.ts';
import type { AnalyticsRange, AnalyticsRollups } from '../src/analytics/store.ts';
import { rowsOf } from '../scripts/bench-env.ts';

type Numeric = string | number;

const FUNNEL_COLUMNS = ['choices_shown', 'choices_selected', 'gifts_added', 'gifts_removed', 'offers_shown', 'orders_with_gifts'] as const;

/**
 * The funnel rollup's rows (shop, day, rule) computed from raw events and orders of the shops
 * whose id matches `shopIdIs` (an SQL tail such as `= 'shp_1'`): events on the day they were
 * received in the shop's timezone (an offer shown: a `gift_added` of an `auto_add` rule, a
 * `choice_shown` of any other), orders once per rule of their gift lines that is a rule of
 * that campaign (analytics/funnel.ts). The seed inserts these rows; the benchmark compares them.
 *
 * @example sql`INSERT INTO daily_rule_stats (…) ${rawRuleFunnel(sql`LIKE 'shp_bench%'`)}`
 */
export function rawRuleFunnel(shopIdIs: SQL): SQL {
  const count = (type: string) => sql.raw(`count(*) FILTER (WHERE e.type = '${type}')`);
  return sql`
    SELECT shop_id, day, rule_id, min(campaign_id) AS campaign_id, sum(choices_shown) AS choices_shown, sum(choices_selected) AS choices_selected,
           sum(gifts_added) AS gifts_added, sum(gifts_removed) AS gifts_removed, sum(offers_shown) AS offers_shown, sum(orders_with_gifts) AS orders_with_gifts
      FROM (SELECT e.shop_id, (e.received_at AT TIME ZONE s.timezone)::date AS day, e.rule_id, min(e.campaign_id) AS campaign_id,
                   ${count('choice_shown')} AS choices_shown, ${count('choice_selected')} AS choices_selected,
                   ${count('gift_added')} AS gifts_added, ${count('gift_removed')} AS gifts_removed,
                   count(*) FILTER (WHERE e.type = CASE WHEN coalesce(r.options->>'actionType', 'auto_add') = 'auto_add' THEN 'gift_added' ELSE 'choice_shown' END) AS offers_shown,
                   0 AS orders_with_gifts
              FROM storefront_events e JOIN shops s ON s.id = e.shop_id JOIN rules r ON r.shop_id = e.shop_id AND r.id = e.rule_id
             WHERE e.shop_id ${shopIdIs}
             GROUP BY e.shop_id, 2, e.rule_id
            UNION ALL
            SELECT o.shop_id, o.day, r.id, r.campaign_id, 0, 0, 0, 0, 0, count(DISTINCT o.id)
              FROM orders o, jsonb_array_elements(o.payload->'lines') l, rules r
             WHERE o.shop_id ${shopIdIs} AND o.gift_lines > 0 AND r.shop_id = o.shop_id
               AND r.id = l->'attributes'->>'_svc_rule_id' AND r.campaign_id = l->'attributes'->>'_svc_campaign_id'
             GROUP BY o.shop_id, o.day, r.id, r.campaign_id) parts
     GROUP BY shop_id, day, rule_id`;
}

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
  const rules = await rowsOf<Record<'rule_id' | 'campaign_id', string> & { action_type: 'auto_add' | 'customer_choice' | null } & Record<(typeof FUNNEL_COLUMNS)[number], Numeric>>(
    db,
    sql`SELECT f.rule_id, f.campaign_id, min(CASE WHEN r.id IS NOT NULL THEN coalesce(r.options->>'actionType', 'auto_add') END) AS action_type,
               ${sql.raw(FUNNEL_COLUMNS.map((column) => `sum(f.${column}) AS ${column}`).join(', '))}
          FROM (${rawRuleFunnel(sql`= ${shopId}`)}) f LEFT JOIN rules r ON r.shop_id = f.shop_id AND r.id = f.rule_id
         WHERE f.day BETWEEN ${range.from} AND ${range.to}
         GROUP BY f.campaign_id, f.rule_id ORDER BY f.campaign_id COLLATE "C", f.rule_id COLLATE "C"`,
  );
  return {
    rules: rules.map((row) => ({
      ruleId: row.rule_id,
      campaignId: row.campaign_id,
      actionType: row.action_type,
      offersShown: Number(row.offers_shown),
      choicesShown: Number(row.choices_shown),
      choicesSelected: Number(row.choices_selected),
      giftsAdded: Number(row.gifts_added),
      giftsRemoved: Number(row.gifts_removed),
      ordersWithGifts: Number(row.orders_with_gifts),
      giftsRepaired: 0,
    })),
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
