/**
 * The progress bar's model (pure): the steps the live rules give (each `cart.subtotal_gte`
 * threshold resolved for the shopper's cart, with the rule's gifts), how far the cart is toward
 * the next one and what is left to spend.
 */
import { minorUnitExponent, normaliseCurrency, thresholdResolver } from '@gcrs/engine/planner';
import type { ConditionNode, RuleResult, ThresholdPlace } from '@gcrs/engine/planner';

/** One step of the bar: a threshold in minor units of the cart currency and what it unlocks. */
export type ProgressThreshold = { amountCents: number; ruleId?: string; gifts?: string[]; choice?: boolean };

/** The parts of a payload rule the steps are read from. */
export type StepRule = { id: string; conditionTree: unknown; giftConfig?: { gifts?: Array<{ variantId: string }> }; options?: { actionType?: string } };

/**
 * A failed rule is still a step when it failed on its subtotal: below its threshold, or past a
 * higher tier of its ladder (its NOT(subtotal ≥ next tier) failed, or `highest_tier` stacking
 * gave its campaign's higher rule instead): a tier passed is shown as reached.
 */
const OPEN = ['subtotal_below_threshold', 'subtotal_at_or_above_threshold', 'suppressed_by_higher_tier'];

/**
 * The bar's steps for one cart: for each live rule still open to this shopper (it matched, or
 * failed on its subtotal ({@link OPEN}): not skipped, limited, suppressed by an exclusive rule, or failed on another condition),
 * its `cart.subtotal_gte` thresholds outside any NOT, resolved like the rule resolves them
 * (market override, currency override, else `value` in the base currency; none: no step), the
 * largest when it has several. Steps at the same amount are merged; sorted by amount.
 *
 * @example progressSteps(rules, results, { currency: 'EUR', baseCurrency: 'USD', marketHandle: undefined })
 */
export function progressSteps(rules: readonly StepRule[], results: readonly RuleResult[], place: ThresholdPlace): ProgressThreshold[] {
  const where = { currency: normaliseCurrency(place.currency), baseCurrency: normaliseCurrency(place.baseCurrency), marketHandle: place.marketHandle?.trim().toLowerCase() };
  const steps = new Map<number, ProgressThreshold>();
  for (const rule of rules) {
    const result = results.find((candidate) => candidate.ruleId === rule.id);
    if (result === undefined || !(result.matched || result.reasons.some((reason) => OPEN.includes(reason)))) continue;
    let amount = -1;
    for (const leaf of subtotalLeaves(rule.conditionTree)) {
      const resolved = thresholdResolver(leaf)(where);
      // As the rule itself: a negative, NaN or infinite candidate fails closed (no step).
      if (typeof resolved === 'number' && Number.isFinite(resolved) && resolved > amount) amount = resolved;
    }
    if (amount < 0) continue;
    const step = steps.get(amount) ?? { amountCents: amount, ruleId: rule.id, gifts: [] };
    for (const gift of rule.giftConfig?.gifts ?? []) if (!step.gifts?.includes(gift.variantId)) step.gifts?.push(gift.variantId);
    // A shopper's choice: the step offers one of its gifts, not all of them.
    if (rule.options?.actionType === 'customer_choice') step.choice = true;
    steps.set(amount, step);
  }
  return [...steps.values()].sort((a, b) => a.amountCents - b.amountCents);
}

export type Progress = {
  /** The next threshold not reached yet, or undefined when every one is reached. */
  next: ProgressThreshold | undefined;
  /** Minor units still to spend to reach `next` (0 when complete). */
  remaining: number;
  /** 0..100 toward `next` (100 when complete). */
  percent: number;
  complete: boolean;
};

/** A `cart.subtotal_gte` leaf of a payload rule. */
export type SubtotalLeaf = Extract<ConditionNode, { type: 'cart.subtotal_gte' }>;

/**
 * The `cart.subtotal_gte` leaves of a condition tree outside any NOT (a negated threshold is
 * no step toward a gift), in any order.
 *
 * @example subtotalLeaves({ type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }] }) // [that leaf]
 */
export function subtotalLeaves(tree: unknown): SubtotalLeaf[] {
  const leaves: SubtotalLeaf[] = [];
  const pending: unknown[] = [tree];
  for (let node = pending.pop() as ConditionNode | undefined; node !== undefined; node = pending.pop() as ConditionNode | undefined) {
    if (node.type === 'AND' || node.type === 'OR') pending.push(...node.children);
    else if (node.type === 'cart.subtotal_gte') leaves.push(node);
  }
  return leaves;
}

/**
 * @example progressToward(3000, [{ amountCents: 5000 }]) // { next: { amountCents: 5000 }, remaining: 2000, percent: 60, complete: false }
 */
export function progressToward(subtotal: number, thresholds: readonly ProgressThreshold[]): Progress {
  const sorted = [...thresholds].sort((a, b) => a.amountCents - b.amountCents);
  const next = sorted.find((threshold) => threshold.amountCents > subtotal);
  if (next === undefined) return { next: undefined, remaining: 0, percent: 100, complete: sorted.length > 0 };
  const percent = next.amountCents <= 0 ? 100 : Math.max(0, Math.min(100, Math.floor((subtotal / next.amountCents) * 100)));
  return { next, remaining: next.amountCents - subtotal, percent, complete: false };
}

/**
 * Minor units as a localised amount of `currency`, with ISO 4217's exponent.
 *
 * @example formatMoney(2000, 'USD', 'en-US') // '$20.00'
 */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const exponent = minorUnitExponent(currency);
  const amount = minor / 10 ** exponent;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(amount);
  } catch {
    return `${amount.toFixed(exponent)} ${currency}`;
  }
}

/**
 * A widget message with its `{{name}}` placeholders filled (unknown names left as they are).
 *
 * @example fillTemplate('Spend {{remaining}} more', { remaining: '$20.00' }) // 'Spend $20.00 more'
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? whole) : whole));
}
