/**
 * The counters a give-back lowers (give-back.ts): budget usage by what intake charged, and the
 * daily refund rollups. Called in the give-back's transaction, after the order row is locked,
 * in intake's lock order (budget counters by key, then daily totals and campaign rows).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Budget } from '@gcrs/engine';
import { usageKey } from '../budgets/spent.ts';
import type { CounterKey } from '../budgets/usage.ts';
import type { Tx } from '../db/database.ts';
import { campaigns, dailyCampaignStats, dailyTotals, giftBudgetUsage, rules } from '../db/schema.ts';
import { keyOf, sorted } from './gift-units.ts';
import type { Given } from './gift-units.ts';

/**
 * Lowers the counters intake charged by the budget units the refund returns, in key order,
 * floored at zero. Per rule, refunded units first cover what intake could not grant (over
 * budget): those never counted. Returns the units and the campaigns whose budget was spent and
 * is open again.
 */
export async function giveBackBudgets(
  tx: Tx,
  shopId: string,
  charges: ReadonlyArray<{ ruleId: string; campaignId: string; units: number; counters: CounterKey[] }>,
  given: readonly Given[],
  carried: ReadonlyMap<string, Given>,
  returned: ReadonlyMap<string, number>,
): Promise<{ units: number; reopened: string[] }> {
  const deltas = new Map<string, CounterKey & { delta: number; campaignId: string }>();
  let units = 0;
  for (const entry of given) {
    // Only the lines intake charged: the rule named with its own campaign (a line naming it with another campaign never counted).
    const charge = entry.ruleId ? charges.find((c) => c.ruleId === entry.ruleId && c.campaignId === entry.campaignId) : undefined;
    if (!charge) continue;
    const key = keyOf(entry.campaignId, entry.ruleId);
    const notGranted = Math.max(0, (carried.get(key)?.units ?? 0) - charge.units);
    const before = returned.get(key) ?? 0;
    const budgetBefore = Math.min(charge.units, Math.max(0, before - notGranted));
    const budgetAfter = Math.min(charge.units, Math.max(0, before + entry.units - notGranted));
    const delta = budgetAfter - budgetBefore;
    if (delta <= 0) continue;
    units += delta;
    for (const counter of charge.counters) {
      const id = usageKey(counter.scope, counter.scopeId, counter.windowStart);
      const found = deltas.get(id) ?? { ...counter, delta: 0, campaignId: entry.campaignId };
      found.delta += delta;
      deltas.set(id, found);
    }
  }
  if (deltas.size === 0) return { units, reopened: [] };
  const maxOf = await currentBudgets(tx, shopId, [...deltas.values()]);
  const reopened = new Set<string>();
  for (const counter of sorted(deltas.values(), (c) => usageKey(c.scope, c.scopeId, c.windowStart))) {
    const [row] = await tx
      .update(giftBudgetUsage)
      .set({ used: sql`greatest(${giftBudgetUsage.used} - ${counter.delta}, 0)` })
      .where(
        and(
          eq(giftBudgetUsage.shopId, shopId),
          eq(giftBudgetUsage.scope, counter.scope),
          eq(giftBudgetUsage.scopeId, counter.scopeId),
          eq(giftBudgetUsage.windowStart, counter.windowStart),
        ),
      )
      .returning({ used: giftBudgetUsage.used });
    const max = maxOf.get(`${counter.scope}\u0000${counter.scopeId}`);
    // Spent before (at most one extra sync when the floor cut the give-back), open after.
    if (row && max !== undefined && row.used < max && row.used + counter.delta >= max) reopened.add(counter.campaignId);
  }
  return { units, reopened: [...reopened] };
}

/** The budgets (maxGifts) the counters' rules and campaigns have now, by `scope\0id`. */
async function currentBudgets(tx: Tx, shopId: string, counters: ReadonlyArray<CounterKey>): Promise<Map<string, number>> {
  const ruleIds = [...new Set(counters.filter((c) => c.scope === 'rule').map((c) => c.scopeId))];
  const campaignIds = [...new Set(counters.filter((c) => c.scope === 'campaign').map((c) => c.scopeId))];
  const max = new Map<string, number>();
  if (ruleIds.length > 0) {
    const rows = await tx
      .select({ id: rules.id, budget: sql<Budget | null>`${rules.options}->'budget'` })
      .from(rules)
      .where(and(eq(rules.shopId, shopId), inArray(rules.id, ruleIds)));
    for (const row of rows) if (row.budget) max.set(`rule\u0000${row.id}`, row.budget.maxGifts);
  }
  if (campaignIds.length > 0) {
    const rows = await tx
      .select({ id: campaigns.id, budget: campaigns.budget })
      .from(campaigns)
      .where(and(eq(campaigns.shopId, shopId), inArray(campaigns.id, campaignIds)));
    for (const row of rows) if (row.budget) max.set(`campaign\u0000${row.id}`, row.budget.maxGifts);
  }
  return max;
}

/** Refunds on the refund's day: gift units per campaign, and orders that stopped carrying gifts. */
export async function recordRefundRollups(
  tx: Tx,
  shopId: string,
  day: string,
  given: readonly Given[],
  carried: ReadonlyMap<string, Given>,
  left: (key: string) => number,
): Promise<void> {
  const leftOf = (campaignId?: string) =>
    [...carried].filter(([, entry]) => campaignId === undefined || entry.campaignId === campaignId).reduce((sum, [key]) => sum + left(key), 0);
  const givenOf = (campaignId?: string) =>
    given.filter((entry) => campaignId === undefined || entry.campaignId === campaignId).reduce((sum, entry) => sum + entry.units, 0);
  const orderNoMore = leftOf() === givenOf() ? 1 : 0;
  await tx
    .insert(dailyTotals)
    .values({ shopId, day, totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: orderNoMore })
    .onConflictDoUpdate({
      target: [dailyTotals.shopId, dailyTotals.day],
      set: { ordersWithGiftsRefunded: sql`${dailyTotals.ordersWithGiftsRefunded} + excluded.orders_with_gifts_refunded` },
    });
  const campaignIds = sorted(new Set(given.map((entry) => entry.campaignId)), (id) => id);
  await tx
    .insert(dailyCampaignStats)
    .values(
      campaignIds.map((campaignId) => ({
        shopId,
        day,
        campaignId,
        ordersWithGifts: 0,
        giftsGiven: 0,
        revenueWithGifts: 0,
        giftsRefunded: givenOf(campaignId),
        ordersWithGiftsRefunded: leftOf(campaignId) === givenOf(campaignId) ? 1 : 0,
      })),
    )
    .onConflictDoUpdate({
      target: [dailyCampaignStats.shopId, dailyCampaignStats.day, dailyCampaignStats.campaignId],
      set: {
        giftsRefunded: sql`least(${dailyCampaignStats.giftsRefunded}::bigint + excluded.gifts_refunded, 2147483647)`,
        ordersWithGiftsRefunded: sql`${dailyCampaignStats.ordersWithGiftsRefunded} + excluded.orders_with_gifts_refunded`,
      },
    });
}
