/**
 * Order intake's side of gift budgets (docs/promotions.md "Budgets"): inside the intake
 * transaction, every counter row an order touches is locked in one fixed order (scope, id,
 * window), so concurrent orders on any number of instances queue on the rows they share and
 * never deadlock; each grants at most what is left, so a counter never passes its budget.
 */
import { GIFT_ATTRIBUTE } from '@gcrs/engine';
import type { Budget } from '@gcrs/engine';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { campaigns, giftBudgetUsage, rules } from '../db/schema.ts';
import { usageKey } from './spent.ts';
import type { BudgetScope } from './spent.ts';
import type { CounterKey } from './usage.ts';
import { windowStartOf } from './window.ts';

/** Gift units of one rule an order carries, attributed to the rule's own campaign. */
export type RuleUnits = { ruleId: string; campaignId: string; units: number };

/** Units intake did not grant because a budget was spent. */
export type OverBudget = { ruleId: string; campaignId: string; quantity: number };

/** Units granted to one rule and the counters they went to: what a refund gives back (give-backs/give-back.ts). */
export type RuleCharge = { ruleId: string; campaignId: string; units: number; counters: CounterKey[] };

export type BudgetCharge = {
  overBudget: OverBudget[];
  charged: RuleCharge[];
  /** Campaigns (their own budget, or a rule's of theirs) whose budget this order spent: the rules payload changed. */
  spentCampaigns: string[];
};

/** The budgets of the order's rules and of their campaigns, in one read. */
async function budgetsOf(tx: Queryable, shopId: string, ruleIds: readonly string[]) {
  return tx
    .select({ ruleId: rules.id, campaignId: rules.campaignId, ruleBudget: sql<Budget | null>`${rules.options}->'budget'`, campaignBudget: campaigns.budget })
    .from(rules)
    .innerJoin(campaigns, and(eq(campaigns.shopId, rules.shopId), eq(campaigns.id, rules.campaignId)))
    .where(and(eq(rules.shopId, shopId), inArray(rules.id, [...ruleIds])));
}

/** Locks the counter row (creating it at 0) and returns what it holds. */
async function lockCounter(tx: Queryable, shopId: string, counter: CounterKey): Promise<number> {
  const [row] = await tx
    .insert(giftBudgetUsage)
    .values({ shopId, ...counter, used: 0 })
    .onConflictDoUpdate({
      target: [giftBudgetUsage.shopId, giftBudgetUsage.scope, giftBudgetUsage.scopeId, giftBudgetUsage.windowStart],
      // A no-op update: it takes the row lock and returns the committed value.
      set: { used: sql`${giftBudgetUsage.used}` },
    })
    .returning({ used: giftBudgetUsage.used });
  return row?.used ?? 0;
}

const compareCounters = (a: CounterKey, b: CounterKey): number => {
  const left = usageKey(a.scope, a.scopeId, a.windowStart);
  const right = usageKey(b.scope, b.scopeId, b.windowStart);
  return left < right ? -1 : left > right ? 1 : 0;
};

/**
 * Charges an order's gift units to the budgets of their rules and campaigns, in the window of
 * `completedAt`: grant = min(units, rule's remaining, campaign's remaining), rules in id order.
 * What is not granted is returned as over budget. Nothing is read or locked when no rule of
 * the order has a budget and no campaign of theirs has one.
 *
 * @example
 *   const charge = await chargeBudgets(tx, shop, completedAt, [{ ruleId, campaignId, units: 2 }]);
 */
export async function chargeBudgets(
  tx: Queryable,
  shop: { id: string; timezone: string },
  completedAt: Date,
  units: readonly RuleUnits[],
): Promise<BudgetCharge> {
  const none: BudgetCharge = { overBudget: [], charged: [], spentCampaigns: [] };
  if (units.length === 0) return none;
  const found = await budgetsOf(tx, shop.id, units.map((entry) => entry.ruleId));
  const budgetOf = new Map(found.map((row) => [row.ruleId, row]));

  type Counter = CounterKey & { budget: Budget; used: number; before: number; campaignId: string };
  const counters = new Map<string, Counter>();
  const counterFor = (scope: BudgetScope, scopeId: string, campaignId: string, budget: Budget | null | undefined): Counter | undefined => {
    if (!budget) return undefined;
    const windowStart = windowStartOf(completedAt, budget.window, shop.timezone);
    const key = usageKey(scope, scopeId, windowStart);
    let counter = counters.get(key);
    if (!counter) {
      counter = { scope, scopeId, windowStart, budget, used: 0, before: 0, campaignId };
      counters.set(key, counter);
    }
    return counter;
  };
  const charges = [...units]
    .sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0))
    .flatMap((entry) => {
      const row = budgetOf.get(entry.ruleId);
      // Attributed as intake does: a rule of this shop, of the campaign the line names.
      if (!row || row.campaignId !== entry.campaignId) return [];
      const rule = counterFor('rule', entry.ruleId, entry.campaignId, row.ruleBudget);
      const campaign = counterFor('campaign', entry.campaignId, entry.campaignId, row.campaignBudget);
      return rule || campaign ? [{ entry, counters: [rule, campaign].filter((c): c is Counter => c !== undefined) }] : [];
    });
  if (charges.length === 0) return none;

  // Fixed lock order: every intake takes the rows it shares with another in the same order.
  for (const counter of [...counters.values()].sort(compareCounters)) {
    counter.before = await lockCounter(tx, shop.id, counter);
    counter.used = counter.before;
  }

  const overBudget: OverBudget[] = [];
  const charged: RuleCharge[] = [];
  for (const { entry, counters: limits } of charges) {
    const grant = limits.reduce((left, counter) => Math.min(left, Math.max(0, counter.budget.maxGifts - counter.used)), entry.units);
    for (const counter of limits) counter.used += grant;
    if (grant > 0) {
      charged.push({ ruleId: entry.ruleId, campaignId: entry.campaignId, units: grant, counters: limits.map(({ scope, scopeId, windowStart }) => ({ scope, scopeId, windowStart })) });
    }
    if (grant < entry.units) overBudget.push({ ruleId: entry.ruleId, campaignId: entry.campaignId, quantity: entry.units - grant });
  }

  const spentCampaigns = new Set<string>();
  for (const counter of [...counters.values()].sort(compareCounters)) {
    if (counter.used === counter.before) continue;
    await tx
      .update(giftBudgetUsage)
      .set({ used: counter.used })
      .where(
        and(
          eq(giftBudgetUsage.shopId, shop.id),
          eq(giftBudgetUsage.scope, counter.scope),
          eq(giftBudgetUsage.scopeId, counter.scopeId),
          eq(giftBudgetUsage.windowStart, counter.windowStart),
        ),
      );
    if (counter.before < counter.budget.maxGifts && counter.used >= counter.budget.maxGifts) spentCampaigns.add(counter.campaignId);
  }
  return { overBudget, charged, spentCampaigns: [...spentCampaigns] };
}
/**
 * Gift units per rule of an order's lines: lines naming a campaign and a rule of it, as
 * `ruleCampaign` (this shop's rules → their campaign) knows them; other gift lines count for
 * no budget.
 *
 * @example
 *   ruleUnitsOf(order.lines, new Map([['rul_1', 'cmp_1']])); // [{ ruleId: 'rul_1', campaignId: 'cmp_1', units: 2 }]
 */
export function ruleUnitsOf(
  lines: ReadonlyArray<{ quantity: number; attributes?: Record<string, string> | undefined }>,
  ruleCampaign: ReadonlyMap<string, string>,
): RuleUnits[] {
  const units = new Map<string, RuleUnits>();
  for (const line of lines) {
    const campaignId = line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim();
    const ruleId = line.attributes?.[GIFT_ATTRIBUTE.ruleId]?.trim();
    if (!campaignId || !ruleId || ruleCampaign.get(ruleId) !== campaignId) continue;
    const entry = units.get(ruleId) ?? { ruleId, campaignId, units: 0 };
    entry.units += line.quantity;
    units.set(ruleId, entry);
  }
  return [...units.values()];
}
