import type { CombinatorNode, ConditionNode } from '../schema/condition-node.ts';
import type { Plan } from './plans.ts';
import { isLeafAllowed } from './plan-matrix.ts';

/** SPEC's never-matching tree: what remains when stripping removes the whole tree. */
const NEVER_MATCHING = (): ConditionNode => ({ type: 'AND', children: [] });

// A combinator being rebuilt. `kept` is allocated only once a child changed, so a tree
// with nothing to strip is walked without copying and returned as the same object.
type Frame = {
  node: CombinatorNode;
  index: number;
  kept: ConditionNode[] | undefined;
  notChild: ConditionNode | null | undefined;
};

/**
 * Removes the leaves the plan may not use (SPEC: stripped at save time without an
 * error), iteratively. A removed leaf leaves its parent's children; an AND/OR that
 * stripping empties is removed in turn, and so is a NOT whose child was removed; if the
 * root goes, the result is `{ type: 'AND', children: [] }`, which never matches.
 * An AND/OR that was already empty is kept as it was. `stripped` counts removed leaves.
 *
 * @example
 * stripDisallowedLeaves({ type: 'AND', children: [
 *   { type: 'cart.subtotal_gte', value: 5000 },
 *   { type: 'customer.tag_in', value: ['vip'] } ] }, 'free')
 * // { tree: { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }] }, stripped: 1 }
 */
export function stripDisallowedLeaves(
  tree: ConditionNode,
  plan: Plan,
): { tree: ConditionNode; stripped: number } {
  let stripped = 0;
  const stack: Frame[] = [];
  // The result of the node just finished: the (possibly new) node, null when removed,
  // undefined while a combinator was entered and its children are still pending.
  const visit = (node: ConditionNode): ConditionNode | null | undefined => {
    if (node.type === 'AND' || node.type === 'OR' || node.type === 'NOT') {
      stack.push({ node, index: 0, kept: undefined, notChild: undefined });
      return undefined;
    }
    if (isLeafAllowed(plan, node.type)) return node;
    stripped++;
    return null;
  };

  let value = visit(tree);
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const node = top.node;
    if (value !== undefined) {
      if (node.type === 'NOT') top.notChild = value;
      else recordChild(top, node.children, value);
      top.index++;
      value = undefined;
    }
    if (node.type === 'NOT' ? top.index < 1 : top.index < node.children.length) {
      const child = node.type === 'NOT' ? node.child : node.children[top.index];
      if (child === undefined) throw new Error('unreachable: index within bounds');
      value = visit(child);
      continue;
    }
    stack.pop();
    value = finish(top);
  }
  return { tree: value ?? NEVER_MATCHING(), stripped };
}

function recordChild(frame: Frame, children: ConditionNode[], result: ConditionNode | null) {
  if (frame.kept === undefined) {
    if (result === children[frame.index]) return;
    frame.kept = children.slice(0, frame.index);
  }
  if (result !== null) frame.kept.push(result);
}

function finish(frame: Frame): ConditionNode | null {
  const node = frame.node;
  if (node.type === 'NOT') {
    const child = frame.notChild;
    if (child === null || child === undefined) return null;
    return child === node.child ? node : { type: 'NOT', child };
  }
  if (frame.kept === undefined) return node;
  if (frame.kept.length === 0) return null;
  return { type: node.type, children: frame.kept };
}
