/**
 * gifts-debug.js, the `?svc_debug=1` console's chunk (widgets-api.ts), fetched only when the page
 * asks for it and the shop allows it (`debugAllowed`). The first load's planner builds no traces
 * (build-script.ts leaves the trace builder out of it); this chunk has an engine of its own with
 * the trace builder, evaluates each plan's cart again with traces and logs them. Registered on
 * `window.svcGiftsDebug`.
 */
import { compileRules, evaluateRules } from '@gcrs/engine/planner';
import type { DebugChunk, DebugPlan } from './widgets-api.ts';

function trace({ payload, ctx, visitorId, redemptions, results, operations }: DebugPlan): void {
  // The same payload, cart and visitor as the plan: the same results, now with their traces.
  const traced = evaluateRules(compileRules(payload), ctx, { visitorId, redemptions, trace: true });
  for (const result of results) {
    const trace = traced.find((candidate) => candidate.ruleId === result.ruleId)?.trace;
    if (trace !== undefined) result.trace = trace;
  }
  console.groupCollapsed(`[svc-gifts] evaluation: ${results.filter((result) => result.matched).length}/${results.length} rules matched, ${operations.length} operations`);
  console.log('context', ctx);
  for (const result of results) console.log(result.matched ? 'matched' : 'not matched', result.ruleId, result.reasons, result.trace);
  console.log('operations', operations);
  console.groupEnd();
}

const chunk: DebugChunk = { trace };
window.svcGiftsDebug ??= chunk;
