/**
 * One evaluation as CONTRACT "Evaluation" answers it: every rule's result with its full
 * trace, and the operations that bring the cart to the state the rules call for. Both
 * POST /evaluate and the admin simulator answer with this; only their rules differ.
 */
import { planCart } from '@gcrs/engine';
import type { CompiledRules, EvaluationContext } from '@gcrs/engine';
import type { EvaluationResponse } from './schemas.ts';

/**
 * Evaluates compiled rules against one context at the instant `now` (schedule windows),
 * assigning experiment variants by the context's `visitorId`. Every result carries all of
 * CONTRACT's keys: a skipped rule (disabled, outside its window, another experiment
 * variant) has `trace: null` and its skip reason in `reasons`.
 *
 * @example
 *   const { results, operations } = evaluateWithTrace(compileRules(payload), context, new Date());
 */
export function evaluateWithTrace(rules: CompiledRules, context: EvaluationContext, now: Date): EvaluationResponse {
  const plan = planCart(rules, context, { now, trace: true });
  return {
    results: plan.results.map((result) => ({
      ruleId: result.ruleId,
      campaignId: result.campaignId,
      matched: result.matched,
      reasons: result.reasons,
      trace: result.trace ?? null,
    })),
    operations: plan.operations,
  };
}
