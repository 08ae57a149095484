/**
 * rule-trace.ts for the storefront's first load (packages/storefront/scripts/build-script.ts): the
 * script never asks the planner for traces (`trace` stays off), so the trace builder is left out;
 * the `?svc_debug=1` console is its own chunk, built with the real module. Asking for a trace in
 * such a build is a programming error, and says so.
 */
import type { ConditionTrace } from '../evaluate/trace-condition.ts';

function absent(): ConditionTrace {
  throw new Error('this build has no condition traces: the debug chunk builds them');
}

export const ruleTrace = absent;
export const truncatedTrace = absent;
