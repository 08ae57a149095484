/**
 * The raw figures of an experiment's results, per variant, over its window [startedAt,
 * stoppedAt or now] (docs/merchant-admin.md "Experiments", "Results"):
 *
 * - visitors: the distinct visitor ids of the shop's storefront events in the window, each put in
 *   its variant by the storefront's own assignment (`assignVariant`, FNV-1a of visitor and
 *   experiment), so a visitor counts in the variant that decided their cart;
 * - gift adds: the campaign's `gift_added` events for the variant's rule;
 * - orders: orders completed in the window with a gift line of the campaign naming the
 *   variant's rule (`_svc_rule_id`), with the count, sum and sum of squares of their totals.
 *
 * Read only, from the tables the events and orders already fill: no migration, no new writes.
 */
import { assignVariant } from '@gcrs/engine';
import { sql } from 'drizzle-orm';
import type { ExperimentRow } from '../campaigns/store.ts';
import type { Queryable } from '../db/database.ts';
import type { Moments } from './statistics.ts';

export type VariantFigures = { visitors: number; giftAdds: number; orders: Moments };

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** The experiment's window: from its start to its stop, or to `now` while it runs. */
export function windowOf(experiment: Pick<ExperimentRow, 'startedAt' | 'stoppedAt'>, now: Date): { from: Date; to: Date } {
  return { from: experiment.startedAt, to: experiment.stoppedAt ?? now };
}

/**
 * Figures per variant id, in the experiment's variant order.
 *
 * @example const figures = await loadVariantFigures(ctx.db, shop.id, experiment, new Date());
 */
export async function loadVariantFigures(
  db: Queryable,
  shopId: string,
  experiment: ExperimentRow,
  now: Date,
): Promise<Map<string, VariantFigures>> {
  const { from, to } = windowOf(experiment, now);
  const fromText = from.toISOString();
  const toText = to.toISOString();
  const figures = new Map<string, VariantFigures>(
    experiment.variants.map((variant) => [variant.id, { visitors: 0, giftAdds: 0, orders: { n: 0, sum: 0, sumSquares: 0 } }]),
  );
  const variantOfRule = new Map(experiment.variants.map((variant) => [variant.ruleId, variant.id]));
  const ruleIds = sql.join(
    experiment.variants.map((variant) => sql`${variant.ruleId}`),
    sql`, `,
  );

  // Three independent reads: on a pool they run side by side.
  const [visitorRows, addRows, orderRows] = await Promise.all([
    db.execute(sql`
      SELECT DISTINCT visitor_id FROM storefront_events
       WHERE shop_id = ${shopId} AND visitor_id IS NOT NULL
         AND received_at >= ${fromText}::timestamptz AND received_at <= ${toText}::timestamptz`),
    db.execute(sql`
      SELECT rule_id, count(*) AS adds FROM storefront_events
       WHERE shop_id = ${shopId} AND campaign_id = ${experiment.campaignId} AND type = 'gift_added'
         AND rule_id IN (${ruleIds})
         AND received_at >= ${fromText}::timestamptz AND received_at <= ${toText}::timestamptz
       GROUP BY rule_id`),
    // One row per (order, rule): an order with two lines of one rule counts once for it.
    db.execute(sql`
      SELECT rule_id, count(*) AS n, sum(total) AS total, sum(total::numeric * total::numeric) AS squares
        FROM (
          SELECT DISTINCT o.id, o.total, line -> 'attributes' ->> '_svc_rule_id' AS rule_id
            FROM orders o, jsonb_array_elements(o.payload -> 'lines') AS line
           WHERE o.shop_id = ${shopId} AND o.gift_lines > 0
             AND o.completed_at >= ${fromText}::timestamptz AND o.completed_at <= ${toText}::timestamptz
             AND line -> 'attributes' ->> '_svc_campaign_id' = ${experiment.campaignId}
             AND line -> 'attributes' ->> '_svc_rule_id' IN (${ruleIds})
        ) AS attributed
       GROUP BY rule_id`),
  ]);
  const visitors = rowsOf<{ visitor_id: string }>(visitorRows);
  const engineExperiment = { id: experiment.id, variants: experiment.variants };
  for (const { visitor_id: visitorId } of visitors) {
    const variant = assignVariant(engineExperiment, visitorId);
    const entry = variant && figures.get(variant.id);
    if (entry) entry.visitors += 1;
  }

  const adds = rowsOf<{ rule_id: string; adds: string | number }>(addRows);
  for (const row of adds) {
    const entry = figures.get(variantOfRule.get(row.rule_id) ?? '');
    if (entry) entry.giftAdds = Number(row.adds);
  }

  const orders = rowsOf<{ rule_id: string; n: string | number; total: string | number | null; squares: string | number | null }>(orderRows);
  for (const row of orders) {
    const entry = figures.get(variantOfRule.get(row.rule_id) ?? '');
    if (entry) entry.orders = { n: Number(row.n), sum: Number(row.total ?? 0), sumSquares: Number(row.squares ?? 0) };
  }
  return figures;
}
