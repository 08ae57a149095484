/**
 * One evaluation as CONTRACT "Evaluation" answers it: every rule's result with its full
 * trace (left out on request: `?trace=false`), and the operations that bring the cart to the
 * state the rules call for. Both POST /evaluate and the admin simulator answer with this; only
 * their rules differ.
 */
import { planCart } from '@gcrs/engine';
import type { CompiledRules, EvaluationContext, RedemptionCounts } from '@gcrs/engine';
import { MAX_TRACE_NODES } from './limits.ts';
import type { EvaluationResponse } from './schemas.ts';

/**
 * Evaluates compiled rules against one context at the instant `now` (schedule windows),
 * assigning experiment variants by the context's `visitorId`. Every result carries all of
 * CONTRACT's keys: a skipped rule (disabled, outside its window, another experiment
 * variant) has `trace: null` and its skip reason in `reasons`. With `trace: false` no trace
 * is built and results have no `trace` key; with traces, at most MAX_TRACE_NODES nodes.
 * `redemptions` are the customer's trusted counts for per-customer limits (customer-redemptions.ts).
 *
 * @example
 *   const { results, operations } = evaluateContext(compileRules(payload), context, new Date(), { trace: true });
 */
export function evaluateContext(
  rules: CompiledRules,
  context: EvaluationContext,
  now: Date,
  options: { trace: boolean; redemptions?: RedemptionCounts | undefined },
): EvaluationResponse {
  const plan = planCart(rules, context, { now, trace: options.trace, traceNodeLimit: MAX_TRACE_NODES, redemptions: options.redemptions });
  return {
    // Built key by key in CONTRACT's order (the optional keys only when set), with no
    // intermediate objects: a response holds one result per rule of the shop.
    results: plan.results.map((result) => {
      const out: EvaluationResponse['results'][number] = { ruleId: result.ruleId, campaignId: result.campaignId, matched: result.matched, reasons: result.reasons };
      if (result.suppressedBy !== undefined) out.suppressedBy = result.suppressedBy;
      if (result.repeat !== undefined) out.repeat = result.repeat;
      if (result.limit !== undefined) out.limit = result.limit;
      if (options.trace) out.trace = result.trace ?? null;
      return out;
    }),
    operations: plan.operations,
  };
}
