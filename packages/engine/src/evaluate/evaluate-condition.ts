import type { CombinatorNode, ConditionNode } from '../schema/condition-node.ts';
import type { LeafNode } from '../leaves/registry.ts';
import type { EvaluationContext } from '../schema/evaluation-context.ts';
import * as COMBINATOR_REASON from './combinator-reasons.ts';
import type { EvaluationOptions, PreparedContext } from './prepare-context.ts';
import { prepareContext } from './prepare-context.ts';
import { compileLeaf } from './compile-leaf.ts';

/** What an evaluation answers: the match and the reason codes that decided it. */
export type ConditionResult = { matched: boolean; reasons: string[] };

/** A malformed node (not an object, a NOT without a child) fails closed with this code. */
export const MALFORMED_NODE = 'malformed_node';

/**
 * Uses an already prepared context as is, or prepares a raw one.
 *
 * @example const prepared = asPrepared(ctx, { baseCurrency: 'USD' });
 */
export function asPrepared(ctx: EvaluationContext | PreparedContext, options: EvaluationOptions): PreparedContext {
  return (ctx as PreparedContext).kind === 'prepared-context' ? (ctx as PreparedContext) : prepareContext(ctx as EvaluationContext, options);
}

/**
 * A node the drivers can walk into: an object with a `type`.
 *
 * @example isNode({ type: 'AND', children: [] }) // true
 */
export function isNode(value: unknown): value is ConditionNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

type Frame = { node: CombinatorNode; index: number; mark: number; childStart: number };

/**
 * Evaluates a tree the storefront way (SPEC): AND stops at the first failing child, OR at
 * the first match, NOT inverts its child. Iterative, so any depth works.
 * Empty AND/OR never match (SPEC: malformed); NOT inverts whatever its child answered, so
 * NOT(AND[]) matches. `reasons` are the leaf codes that decided the result: a failed AND
 * keeps the failing child's, a matched OR the matching child's, otherwise all evaluated.
 *
 * @example
 * evaluateCondition({ type: 'cart.subtotal_gte', value: 5000 }, ctx, { baseCurrency: 'USD' })
 * // { matched: true, reasons: ['subtotal_at_or_above_threshold'] }
 */
export function evaluateCondition(
  tree: ConditionNode,
  ctx: EvaluationContext | PreparedContext,
  options: EvaluationOptions,
): ConditionResult {
  const prepared = asPrepared(ctx, options);
  const reasons: string[] = [];
  const stack: Frame[] = [];

  // The node's result, or undefined once a combinator frame was pushed.
  const enter = (node: unknown): boolean | undefined => {
    if (!isNode(node)) {
      reasons.push(MALFORMED_NODE);
      return false;
    }
    if (node.type === 'AND' || node.type === 'OR') {
      if (!Array.isArray(node.children) || node.children.length === 0) {
        reasons.push(COMBINATOR_REASON.emptyChildren);
        return false;
      }
    } else if (node.type === 'NOT') {
      if (!isNode(node.child)) {
        reasons.push(MALFORMED_NODE);
        return false;
      }
    } else {
      const outcome = compileLeaf(node as LeafNode)(prepared);
      reasons.push(outcome.reason);
      return outcome.matched;
    }
    stack.push({ node, index: 0, mark: reasons.length, childStart: reasons.length });
    return undefined;
  };
  // Keeps only the reasons of the child that decided the combinator.
  const keepDecidingChild = (frame: Frame) => {
    const kept = reasons.length - frame.childStart;
    reasons.copyWithin(frame.mark, frame.childStart);
    reasons.length = frame.mark + kept;
  };

  let value = enter(tree);
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const node = top.node;
    if (value === undefined) {
      top.childStart = reasons.length;
      value = enter(node.type === 'NOT' ? node.child : node.children[top.index]);
      continue;
    }
    if (node.type === 'NOT') {
      stack.pop();
      value = !value;
      continue;
    }
    const decisive = node.type === 'AND' ? !value : value;
    if (decisive) {
      keepDecidingChild(top);
      stack.pop();
      continue;
    }
    top.index++;
    if (top.index >= node.children.length) {
      stack.pop();
      continue; // value already is the combinator's answer: AND all true, OR all false
    }
    value = undefined;
  }
  return { matched: value === true, reasons: [...new Set(reasons)] };
}
