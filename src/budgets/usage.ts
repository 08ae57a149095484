/**
 * Budget counters as read (docs/promotions.md "Budgets"): the current windows' counters for the
 * rules payload (load-source.ts) and for the merchant's single-campaign read. Intake moves them
 * (charge.ts).
 */
import type { Budget } from '@gcrs/engine';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { giftBudgetUsage } from '../db/schema.ts';
import { indexUsage, usageKey } from './spent.ts';
import type { BudgetScope, BudgetUsageIndex } from './spent.ts';
import { windowStartOf } from './window.ts';

/** A counter row's key: scope, id and the first local date of its window. */
export type CounterKey = { scope: BudgetScope; scopeId: string; windowStart: string };

/**
 * The counters of the windows holding `at` for every budgeted rule and campaign given; no
 * query when none has a budget.
 *
 * @example
 *   const usage = await budgetUsageAt(tx, shop.id, { rules, campaigns, timeZone: 'UTC' }, Date.now());
 */
export async function budgetUsageAt(
  db: Queryable,
  shopId: string,
  input: {
    rules: ReadonlyArray<{ id: string; options: { budget?: Budget | undefined } }>;
    campaigns: ReadonlyArray<{ id: string; budget: Budget | null }>;
    timeZone: string;
  },
  at: number,
): Promise<BudgetUsageIndex> {
  const instant = new Date(at);
  const wanted: CounterKey[] = [];
  for (const campaign of input.campaigns) {
    if (campaign.budget) wanted.push({ scope: 'campaign', scopeId: campaign.id, windowStart: windowStartOf(instant, campaign.budget.window, input.timeZone) });
  }
  for (const rule of input.rules) {
    const budget = rule.options.budget;
    if (budget) wanted.push({ scope: 'rule', scopeId: rule.id, windowStart: windowStartOf(instant, budget.window, input.timeZone) });
  }
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ scope: giftBudgetUsage.scope, scopeId: giftBudgetUsage.scopeId, windowStart: giftBudgetUsage.windowStart, used: giftBudgetUsage.used })
    .from(giftBudgetUsage)
    .where(
      and(
        eq(giftBudgetUsage.shopId, shopId),
        inArray(giftBudgetUsage.scopeId, [...new Set(wanted.map((entry) => entry.scopeId))]),
        inArray(giftBudgetUsage.windowStart, [...new Set(wanted.map((entry) => entry.windowStart))]),
      ),
    );
  const keys = new Set(wanted.map((entry) => usageKey(entry.scope, entry.scopeId, entry.windowStart)));
  return indexUsage(rows.filter((row) => keys.has(usageKey(row.scope, row.scopeId, row.windowStart))));
}

type WindowUsage = { used: number; maxGifts: number; window: Budget['window']; windowStart: string; spent: boolean };

/**
 * What the current windows used of a campaign's budgets (the admin's single-campaign read):
 * undefined when neither the campaign nor any rule of it has a budget.
 *
 * @example
 *   const usage = await campaignBudgetUsage(ctx.db, shop, campaign, Date.now()); // usage?.campaign?.used
 */
export async function campaignBudgetUsage(
  db: Queryable,
  shop: { id: string; timezone: string },
  campaign: { id: string; budget: Budget | null; rules: ReadonlyArray<{ id: string; options: { budget?: Budget | undefined } }> },
  at: number,
): Promise<{ campaign: WindowUsage | null; rules: Record<string, WindowUsage> } | undefined> {
  const budgeted = campaign.rules.filter((rule) => rule.options.budget !== undefined);
  if (!campaign.budget && budgeted.length === 0) return undefined;
  const usage = await budgetUsageAt(db, shop.id, { rules: budgeted, campaigns: [campaign], timeZone: shop.timezone }, at);
  const report = (scope: BudgetScope, id: string, budget: Budget): WindowUsage => {
    const windowStart = windowStartOf(new Date(at), budget.window, shop.timezone);
    const used = usage.get(usageKey(scope, id, windowStart)) ?? 0;
    return { used, maxGifts: budget.maxGifts, window: budget.window, windowStart, spent: used >= budget.maxGifts };
  };
  const rules: Record<string, WindowUsage> = {};
  for (const rule of budgeted) if (rule.options.budget) rules[rule.id] = report('rule', rule.id, rule.options.budget);
  return { campaign: campaign.budget ? report('campaign', campaign.id, campaign.budget) : null, rules };
}
