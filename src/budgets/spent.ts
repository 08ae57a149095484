/**
 * Which budgets are spent at an instant (docs/promotions.md "Budgets"): a budget is spent when
 * its counter for the window holding that instant has reached `maxGifts`, so raising maxGifts
 * re-opens it and lowering it below what was used closes it. The rules payload leaves out a
 * spent rule and every rule of a spent campaign. Pure: the counters come from load-source.ts.
 */
import type { Budget } from '@gcrs/engine';
import type { Segment } from '../rules/schedule-window.ts';
import { nextWindowBoundary, startOfLocalDate, windowStartOf } from './window.ts';

export type BudgetScope = 'rule' | 'campaign';

/** One counter row: gift units granted to a rule or campaign in the window starting at `windowStart`. */
export type BudgetUsageRow = { scope: BudgetScope; scopeId: string; windowStart: string; used: number };

/** Counter rows by scope, id and window, for lookups. */
export type BudgetUsageIndex = ReadonlyMap<string, number>;

export const usageKey = (scope: BudgetScope, scopeId: string, windowStart: string): string => `${scope}\u0000${scopeId}\u0000${windowStart}`;

/**
 * @example
 *   indexUsage([{ scope: 'rule', scopeId: 'rul_1', windowStart: '1970-01-01', used: 3 }]);
 */
export function indexUsage(rows: readonly BudgetUsageRow[]): BudgetUsageIndex {
  return new Map(rows.map((row) => [usageKey(row.scope, row.scopeId, row.windowStart), row.used]));
}

/**
 * Gift units used of the budget in the window holding `at`.
 *
 * @example
 *   usedInWindow(usage, 'rule', 'rul_1', { maxGifts: 5, window: 'day' }, at, 'UTC'); // 0 on a new day
 */
export function usedInWindow(usage: BudgetUsageIndex, scope: BudgetScope, scopeId: string, budget: Budget, at: number, timeZone: string): number {
  return usage.get(usageKey(scope, scopeId, windowStartOf(new Date(at), budget.window, timeZone))) ?? 0;
}

export type SpentBudgets = {
  rules: ReadonlySet<string>;
  campaigns: ReadonlySet<string>;
  /** The time around `at` over which the spent sets cannot change without a write (a counter, a budget). */
  segment: Segment;
};

/**
 * The rules and campaigns whose budget is spent at `at` (epoch ms). A spent windowed budget
 * re-opens at its window's end, so the segment ends there: a payload built now must not
 * outlive it. Budgets that are not spent bound nothing — only intake (which bumps the rules
 * version when it spends one) or an edit can change them.
 *
 * @example
 *   spentBudgets({ rules, campaigns, usage, timeZone: 'UTC' }, Date.now()).rules.has('rul_1');
 */
export function spentBudgets(
  input: {
    rules: ReadonlyArray<{ id: string; options: { budget?: Budget | undefined } }>;
    campaigns: ReadonlyArray<{ id: string; budget: Budget | null }>;
    usage: BudgetUsageIndex;
    timeZone: string;
  },
  at: number,
): SpentBudgets {
  const rules = new Set<string>();
  const campaigns = new Set<string>();
  let from = Number.NEGATIVE_INFINITY;
  let until = Number.POSITIVE_INFINITY;
  const spent = (scope: BudgetScope, id: string, budget: Budget): boolean => {
    if (usedInWindow(input.usage, scope, id, budget, at, input.timeZone) < budget.maxGifts) return false;
    if (budget.window !== 'total') {
      const instant = new Date(at);
      from = Math.max(from, startOfLocalDate(windowStartOf(instant, budget.window, input.timeZone), input.timeZone));
      until = Math.min(until, nextWindowBoundary(instant, budget.window, input.timeZone));
    }
    return true;
  };
  for (const campaign of input.campaigns) if (campaign.budget && spent('campaign', campaign.id, campaign.budget)) campaigns.add(campaign.id);
  for (const rule of input.rules) if (rule.options.budget && spent('rule', rule.id, rule.options.budget)) rules.add(rule.id);
  return { rules, campaigns, segment: { from, until } };
}
