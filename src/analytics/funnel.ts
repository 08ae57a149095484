/**
 * The gift funnel per rule (issue 23 item 11: shown → added → ordered), kept in the
 * `daily_rule_stats` rollup: storefront events are counted by the statement that stores them
 * (events/ingest.ts), orders by the order's intake transaction and repaired gifts by the
 * repair's (repairs/ledger.ts). Reports read the rollup only, never raw events or orders.
 */
import { and, asc, between, eq, sql, sum } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import { RULE_OPTION_DEFAULTS } from '@gcrs/engine';
import type { z } from 'zod';
import type { Queryable, Tx } from '../db/database.ts';
import { dailyRuleStats, rules } from '../db/schema.ts';
import { bytewise } from '../db/collation.ts';
import type { ruleStatSchema } from './schema.ts';

/** One rule's funnel over a range: the response's item, counts summed over the days. */
export type RuleFunnelRow = z.output<typeof ruleStatSchema>;

/** An upsert's sum that saturates at the integer column's 2^31 - 1 rather than failing the write. */
const added = (column: AnyColumn) => sql`least(${column}::bigint + excluded.${sql.identifier(column.name)}, 2147483647)`;

/**
 * Counts orders (and repaired gifts) for rules on `day`, in the caller's transaction. Rows are
 * written in rule id order (bytewise), the order every writer of this table uses, so two
 * transactions never wait on each other's rows in a cycle.
 *
 * @example await addRuleDayOrders(tx, shop.id, '2026-11-27', [{ ruleId, campaignId, repaired: false }]);
 */
export async function addRuleDayOrders(
  tx: Tx,
  shopId: string,
  day: string,
  rules: ReadonlyArray<{ ruleId: string; campaignId: string; repaired: boolean }>,
): Promise<void> {
  if (rules.length === 0) return;
  const ordered = [...rules].sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  await tx
    .insert(dailyRuleStats)
    .values(ordered.map((rule) => ({ shopId, day, ruleId: rule.ruleId, campaignId: rule.campaignId, ordersWithGifts: 1, giftsRepaired: rule.repaired ? 1 : 0 })))
    .onConflictDoUpdate({
      target: [dailyRuleStats.shopId, dailyRuleStats.day, dailyRuleStats.ruleId],
      set: {
        ordersWithGifts: added(dailyRuleStats.ordersWithGifts),
        giftsRepaired: added(dailyRuleStats.giftsRepaired),
      },
    });
}

/** A rule's action type in SQL (`r` is the rules row): a rule stored without one has the default. */
const actionTypeOf = (alias: string) => sql`coalesce(${sql.identifier(alias)}.options ->> 'actionType', ${RULE_OPTION_DEFAULTS.actionType}::text)`;

/**
 * A statement (for a data-modifying WITH) that counts the storefront events of the CTE
 * `source` (columns type, campaign_id, rule_id) on `day`, one row per rule in rule id order.
 * Part of the statement that stores the events, so both commit or neither does. An offer is
 * shown by a `choice_shown` of a `customer_choice` rule and by a `gift_added` of an `auto_add`
 * rule (SPEC allows four event types: an automatic gift is shown by being added), by the
 * rule's action type as it is now.
 *
 * @example sql`WITH inserted AS (INSERT … RETURNING type, campaign_id, rule_id), counted AS (${countEventsFrom('inserted', shopId, day)}) SELECT …`
 */
export function countEventsFrom(source: string, shopId: string, day: string): SQL {
  const count = (type: string) => sql`count(*) FILTER (WHERE s.type = ${type})::int`;
  const shownType = sql`CASE WHEN ${actionTypeOf('r')} = 'auto_add' THEN 'gift_added' ELSE 'choice_shown' END`;
  return sql`
    INSERT INTO ${dailyRuleStats} (shop_id, day, rule_id, campaign_id, choices_shown, choices_selected, gifts_added, gifts_removed, offers_shown)
    SELECT ${shopId}, ${day}::date, s.rule_id, min(s.campaign_id),
           ${count('choice_shown')}, ${count('choice_selected')}, ${count('gift_added')}, ${count('gift_removed')},
           count(*) FILTER (WHERE s.type = ${shownType})::int
      FROM ${sql.identifier(source)} s
      JOIN ${rules} r ON r.shop_id = ${shopId} AND r.id = s.rule_id
     GROUP BY s.rule_id
     ORDER BY s.rule_id COLLATE "C"
    ON CONFLICT (shop_id, day, rule_id) DO UPDATE SET
      choices_shown = ${added(dailyRuleStats.choicesShown)},
      choices_selected = ${added(dailyRuleStats.choicesSelected)},
      gifts_added = ${added(dailyRuleStats.giftsAdded)},
      gifts_removed = ${added(dailyRuleStats.giftsRemoved)},
      offers_shown = ${added(dailyRuleStats.offersShown)}`;
}

/**
 * Every rule's funnel summed over `range` (every campaign: the summary's repaired gifts are
 * shop-wide), by campaign then rule id, with the rule's action type as it is now. Rules deleted
 * since keep their rows (the counts are history) and have no action type.
 *
 * @example const rules = await readRuleFunnel(ctx.db, shop.id, { from: '2026-01-01', to: '2026-01-31' });
 */
export async function readRuleFunnel(db: Queryable, shopId: string, range: { from: string; to: string }): Promise<RuleFunnelRow[]> {
  const total = (column: AnyColumn) => sum(column).mapWith(Number);
  return db
    .select({
      ruleId: dailyRuleStats.ruleId,
      campaignId: dailyRuleStats.campaignId,
      // No rules row (deleted since): no action type, not the default's.
      actionType: sql<RuleFunnelRow['actionType']>`min(CASE WHEN ${rules.id} IS NOT NULL THEN ${actionTypeOf('rules')} END)`,
      offersShown: total(dailyRuleStats.offersShown),
      choicesShown: total(dailyRuleStats.choicesShown),
      choicesSelected: total(dailyRuleStats.choicesSelected),
      giftsAdded: total(dailyRuleStats.giftsAdded),
      giftsRemoved: total(dailyRuleStats.giftsRemoved),
      ordersWithGifts: total(dailyRuleStats.ordersWithGifts),
      giftsRepaired: total(dailyRuleStats.giftsRepaired),
    })
    .from(dailyRuleStats)
    .leftJoin(rules, and(eq(rules.shopId, dailyRuleStats.shopId), eq(rules.id, dailyRuleStats.ruleId)))
    .where(and(eq(dailyRuleStats.shopId, shopId), between(dailyRuleStats.day, range.from, range.to)))
    .groupBy(dailyRuleStats.campaignId, dailyRuleStats.ruleId)
    .orderBy(asc(bytewise(dailyRuleStats.campaignId)), asc(bytewise(dailyRuleStats.ruleId)));
}
