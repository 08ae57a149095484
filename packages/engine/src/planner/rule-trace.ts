/**
 * A rule's condition trace for {@link evaluateRules} (`trace: true`): the full trace when it fits
 * the node budget, else the root alone. Its own module so a build that never asks for traces (the
 * storefront's first load) can leave the trace builder and its budget out (rule-trace-absent.ts).
 */
import type { CompiledRule } from '../compile/compile-rules.ts';
import type { ConditionTrace } from '../evaluate/trace-condition.ts';
import { traceCondition } from '../evaluate/trace-condition.ts';
import type { PreparedContext } from '../evaluate/prepare-context.ts';
import type { ConditionNode } from '../schema/condition-node.ts';

/** What a tracer reads of {@link evaluateRules}' options (RuleEvaluationOptions). */
export type TraceOptions = { trace?: boolean | undefined; traceNodeLimit?: number | undefined };

/** Adds one evaluated rule's trace: `matched` and `reasons` are what its conditions answered. */
export type RuleTracer = (rule: CompiledRule, prepared: PreparedContext, matched: boolean, reasons: string[]) => ConditionTrace;

/**
 * The tracer of one {@link evaluateRules} call: none without `trace: true`; else each rule's full
 * trace while the call's traceNodeLimit lasts, the root alone for a rule whose trace would not fit.
 *
 * @example ruleTracer({ trace: true, traceNodeLimit: 100 }, 'USD')?.(rule, prepared, true, ['subtotal_at_or_above_threshold'])
 */
export function ruleTracer(options: TraceOptions, baseCurrency: string): RuleTracer | undefined {
  if (options.trace !== true) return undefined;
  let budget = options.traceNodeLimit ?? Infinity;
  return (rule, prepared, matched, reasons) => {
    // A full trace has one node per program node (the program is the tree, flattened).
    if (rule.program.size > budget) return truncatedTrace(rule, matched, reasons);
    budget -= rule.program.size;
    return ruleTrace(rule, prepared, baseCurrency);
  };
}

/**
 * @example ruleTrace(rule, prepared, 'USD') // { type: 'AND', matched: true, reasons: [...], children: [...] }
 */
export function ruleTrace(rule: CompiledRule, prepared: PreparedContext, baseCurrency: string): ConditionTrace {
  // The drivers treat malformed nodes as false, so an unchecked tree is safe to trace.
  return traceCondition(rule.conditionTree as ConditionNode, prepared, { baseCurrency });
}

/** The root of a trace that did not fit the node limit: the rule's own outcome, no children. */
export function truncatedTrace(rule: CompiledRule, matched: boolean, reasons: string[]): ConditionTrace {
  const tree = rule.conditionTree;
  const type = typeof tree === 'object' && tree !== null && typeof (tree as { type?: unknown }).type === 'string'
    ? (tree as { type: string }).type
    : 'unknown';
  return { type, matched, reasons, truncated: true };
}
