import type { CompiledRule, CompiledRules } from '../compile/compile-rules.ts';
import type { EvaluationContext } from '../schema/evaluation-context.ts';
import type { ConditionTrace } from '../evaluate/trace-condition.ts';
import { prepareContext } from '../evaluate/prepare-context.ts';
import { assignVariant } from './assign-variant.ts';
import type { GiftSets } from './gift-sets.ts';
import { giftSets } from './gift-sets.ts';
import type { CustomerLimit, RedemptionCounts } from './customer-limit.ts';
import { LIMIT_REASON, customerLimit, isKnownCustomer } from './customer-limit.ts';
import type { StackEntry } from './stack-rules.ts';
import { stackRules } from './stack-rules.ts';
import { ruleTracer } from './rule-trace.ts';

/** One rule's answer for one cart (CONTRACT, `/evaluate` results). */
export type RuleResult = {
  ruleId: string;
  campaignId: string;
  matched: boolean;
  reasons: string[];
  /** A matched repeatable gift (giftConfig.per): how many sets it gives and why. */
  repeat?: GiftSets;
  /**
   * A rule whose conditions matched but that a higher rule suppressed (stacking): the winning
   * rule's id; then `matched` is false and `reasons` is `[suppressed_by_exclusive]` or
   * `[suppressed_by_higher_tier]`.
   */
  suppressedBy?: string;
  /**
   * A rule with `options.maxPerCustomer` whose conditions matched: the limit, the customer's
   * redemptions (null when the customer is unknown) and why. When the customer has reached it
   * or is unknown, `matched` is false and `reasons` is `[max_per_customer_reached]` or
   * `[max_per_customer_unknown_customer]`.
   */
  limit?: CustomerLimit;
  trace?: ConditionTrace;
};

export type RuleEvaluationOptions = {
  /** Sticky A/B assignment; falls back to the context's `visitorId`. */
  visitorId?: string | undefined;
  /** The instant schedule windows are checked against; default: now. */
  now?: Date | undefined;
  /** Add a full trace per evaluated rule (the simulator's view). */
  trace?: boolean | undefined;
  /**
   * With `trace`: the most trace nodes one call builds, over all rules. A rule whose full
   * trace would not fit in what is left gets its root node only, marked `truncated`, so the
   * size of a traced answer is bounded whatever the trees; default: unbounded.
   */
  traceNodeLimit?: number | undefined;
  /**
   * The customer's redemption counts by rule id, for rules with `options.maxPerCustomer`
   * (trusted: the caller reads them from the redemption records of `ctx.customer.id`, never
   * from the context body). Absent: the customer's counts are unknown, and such rules give
   * nothing; a customer who is not logged in or has no id is unknown whatever this holds.
   */
  redemptions?: RedemptionCounts | undefined;
};

/** Reason codes of rules that were not evaluated. */
export const SKIP_REASON = {
  disabled: 'rule_disabled',
  invalidRule: 'invalid_rule',
  outsideSchedule: 'outside_schedule',
  invalidSchedule: 'invalid_schedule',
  otherVariant: 'experiment_variant_not_assigned',
} as const;

/**
 * Evaluates every compiled rule against one cart: the context is prepared once, each
 * rule runs its flat program. Skipped rules (disabled, outside their schedule window,
 * another experiment variant, invalid gift config or options) answer `matched: false`
 * with the reason.
 *
 * @example evaluateRules(compileRules(payload), ctx, { visitorId: 'v1' })
 */
export function evaluateRules(
  compiled: CompiledRules,
  ctx: EvaluationContext,
  options: RuleEvaluationOptions = {},
): RuleResult[] {
  const prepared = prepareContext(ctx, {
    baseCurrency: compiled.baseCurrency,
    useDiscountedPrices: compiled.useDiscountedPrices,
  });
  const now = (options.now ?? new Date()).getTime();
  const visitorId = options.visitorId ?? ctx.visitorId;
  const assigned = new Map<string, string | undefined>();
  const results: RuleResult[] = [];
  const tracer = ruleTracer(options, compiled.baseCurrency);
  const counts = isKnownCustomer(ctx.customer) ? options.redemptions : undefined;
  for (const rule of compiled.rules) {
    const skip = skipReason(compiled, rule, now, visitorId, assigned);
    if (skip !== undefined) {
      results.push({ ruleId: rule.id, campaignId: rule.campaignId, matched: false, reasons: [skip] });
      continue;
    }
    const { matched, reasons } = rule.program.run(prepared);
    const result: RuleResult = { ruleId: rule.id, campaignId: rule.campaignId, matched, reasons };
    const maxPerCustomer = rule.options?.maxPerCustomer;
    if (matched && maxPerCustomer !== undefined) {
      result.limit = customerLimit(maxPerCustomer, counts, rule.id);
      // Limited: like a rule whose conditions did not match (no gift, no part in stacking).
      if (result.limit.reason !== LIMIT_REASON.below) {
        result.matched = false;
        result.reasons = [result.limit.reason];
      }
    }
    if (result.matched && rule.per !== undefined) result.repeat = giftSets(rule.per, prepared);
    if (tracer !== undefined) result.trace = tracer(rule, prepared, matched, reasons);
    results.push(result);
  }
  applyStacking(compiled, results);
  return results;
}

/** Marks the matched results a higher rule suppresses (see stackRules); in place. */
function applyStacking(compiled: CompiledRules, results: RuleResult[]): void {
  const stacking = compiled.shopSettings.engine?.stacking ?? 'all';
  const matching: StackEntry[] = [];
  compiled.rules.forEach((rule, index) => {
    const result = results[index];
    if (result?.matched !== true) return;
    matching.push({ id: rule.id, campaign: rule.campaignId, priority: rule.options?.priority ?? 0, exclusive: rule.options?.exclusive === true });
  });
  if (stacking === 'all' && !matching.some((entry) => entry.exclusive)) return;
  const suppressed = stackRules(matching, stacking);
  if (suppressed.size === 0) return;
  for (const result of results) {
    const suppression = suppressed.get(result.ruleId);
    if (suppression === undefined) continue;
    result.matched = false;
    result.reasons = [suppression.reason];
    result.suppressedBy = suppression.by;
    delete result.repeat;
  }
}

function skipReason(
  compiled: CompiledRules,
  rule: CompiledRule,
  now: number,
  visitorId: string | undefined,
  assigned: Map<string, string | undefined>,
): string | undefined {
  if (!rule.enabled) return SKIP_REASON.disabled;
  if (rule.options === undefined) return SKIP_REASON.invalidRule;
  if (Number.isNaN(rule.startsAt) || Number.isNaN(rule.endsAt)) return SKIP_REASON.invalidSchedule;
  // The window is [startAt, endAt): a campaign ending at midnight is over at midnight.
  if (rule.startsAt !== undefined && now < rule.startsAt) return SKIP_REASON.outsideSchedule;
  if (rule.endsAt !== undefined && now >= rule.endsAt) return SKIP_REASON.outsideSchedule;
  const experiment = compiled.experimentOfRule.get(rule.id);
  if (experiment === undefined) return undefined;
  if (!assigned.has(experiment.id)) assigned.set(experiment.id, assignVariant(experiment, visitorId)?.ruleId);
  return assigned.get(experiment.id) === rule.id ? undefined : SKIP_REASON.otherVariant;
}
