import type { CombinatorNode, ConditionNode } from '../schema/condition-node.ts';
import type { LeafNode } from '../leaves/registry.ts';
import type { EvaluationContext } from '../schema/evaluation-context.ts';
import * as COMBINATOR_REASON from './combinator-reasons.ts';
import type { EvaluationOptions, PreparedContext } from './prepare-context.ts';
import { compileLeaf } from './compile-leaf.ts';
import { MALFORMED_NODE, asPrepared, isNode } from './evaluate-condition.ts';

/** One node of a full trace; combinators list their children's traces. */
export type ConditionTrace = {
  type: string;
  matched: boolean;
  reasons: string[];
  children?: ConditionTrace[];
  /** Only on a rule's root when a trace node limit left no room for its tree (see evaluateRules). */
  truncated?: true;
};

type Frame = { node: CombinatorNode; index: number; children: ConditionTrace[] };

/**
 * Evaluates every node (no short-circuit) and returns the full trace, as SPEC's simulator
 * does. `matched` equals {@link evaluateCondition}'s for every tree and context. Leaves
 * carry their reason code; combinators a summary code. Iterative, so any depth works.
 *
 * @example
 * traceCondition({ type: 'NOT', child: { type: 'discount.code_present' } }, ctx, { baseCurrency: 'USD' })
 * // { type: 'NOT', matched: true, reasons: ['child_inverted'],
 * //   children: [{ type: 'discount.code_present', matched: false, reasons: ['no_discount_code'] }] }
 */
export function traceCondition(
  tree: ConditionNode,
  ctx: EvaluationContext | PreparedContext,
  options: EvaluationOptions,
): ConditionTrace {
  const prepared = asPrepared(ctx, options);
  const stack: Frame[] = [];

  const enter = (node: unknown): ConditionTrace | undefined => {
    if (!isNode(node)) return { type: 'unknown', matched: false, reasons: [MALFORMED_NODE] };
    if (node.type === 'AND' || node.type === 'OR') {
      if (!Array.isArray(node.children) || node.children.length === 0) {
        return { type: node.type, matched: false, reasons: [COMBINATOR_REASON.emptyChildren], children: [] };
      }
    } else if (node.type === 'NOT') {
      if (!isNode(node.child)) return { type: 'NOT', matched: false, reasons: [MALFORMED_NODE], children: [] };
    } else {
      const outcome = compileLeaf(node as LeafNode)(prepared);
      return { type: node.type, matched: outcome.matched, reasons: [outcome.reason] };
    }
    stack.push({ node, index: 0, children: [] });
    return undefined;
  };

  let value = enter(tree);
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const node = top.node;
    if (value !== undefined) {
      top.children.push(value);
      top.index++;
      value = undefined;
    }
    const count = node.type === 'NOT' ? 1 : node.children.length;
    if (top.index < count) {
      value = enter(node.type === 'NOT' ? node.child : node.children[top.index]);
      continue;
    }
    stack.pop();
    value = finish(node, top.children);
  }
  if (value === undefined) throw new Error('unreachable: the walk always ends with a trace');
  return value;
}

function finish(node: CombinatorNode, children: ConditionTrace[]): ConditionTrace {
  if (node.type === 'NOT') {
    return { type: 'NOT', matched: children[0]?.matched !== true, reasons: [COMBINATOR_REASON.inverted], children };
  }
  if (node.type === 'AND') {
    const matched = children.every((child) => child.matched);
    const reason = matched ? COMBINATOR_REASON.allChildrenMatched : COMBINATOR_REASON.childNotMatched;
    return { type: 'AND', matched, reasons: [reason], children };
  }
  const matched = children.some((child) => child.matched);
  const reason = matched ? COMBINATOR_REASON.childMatched : COMBINATOR_REASON.noChildMatched;
  return { type: 'OR', matched, reasons: [reason], children };
}
