/**
 * rule-trace.ts for the storefront's first load (packages/storefront/scripts/build-script.ts): the
 * script never asks the planner for traces (`trace` stays off), so the trace builder and its node
 * budget are left out; the `?svc_debug=1` console is its own chunk, built with the real module.
 * Asking for a trace in such a build is a programming error, and says so.
 */
import type { RuleEvaluationOptions } from './evaluate-rules.ts';
import type { RuleTracer } from './rule-trace.ts';

export function ruleTracer(options: RuleEvaluationOptions): RuleTracer | undefined {
  if (options.trace === true) throw new Error('no condition traces in this build');
  return undefined;
}
