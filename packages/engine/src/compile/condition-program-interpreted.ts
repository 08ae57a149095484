/**
 * condition-program.ts for the storefront bundle (packages/storefront/scripts/build-script.ts):
 * the same `compileConditionProgram`, whose `run` walks the tree with the engine's iterative
 * interpreter (evaluate-condition.ts, any depth, leaves compiled once per node) instead of a
 * flat program. A page evaluates a few rules a few times, so the program's speed buys nothing
 * there and its code is bytes of the first load. Held to condition-program.ts by
 * test/condition-program-interpreted.test.ts.
 */
import type { ConditionNode } from '../schema/condition-node.ts';
import { evaluateCondition, isNode } from '../evaluate/evaluate-condition.ts';
import type { ConditionProgram } from './condition-program.ts';

export type { ConditionProgram };

/**
 * @example compileConditionProgram(rule.conditionTree).run(prepared).matched
 */
export function compileConditionProgram(tree: unknown): ConditionProgram {
  // The program's size and depth: its nodes in the same walk (an empty or malformed combinator is one node).
  let size = 0;
  let depth = 0;
  const pending: Array<[unknown, number]> = [[tree, 0]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, level] = item;
    size++;
    depth = Math.max(depth, level);
    if (!isNode(node)) continue;
    if ((node.type === 'AND' || node.type === 'OR') && Array.isArray(node.children)) for (const child of node.children as unknown[]) pending.push([child, level + 1]);
    else if (node.type === 'NOT' && isNode(node.child)) pending.push([node.child, level + 1]);
  }
  // A prepared context is used as it is: the options only serve a raw one.
  return { size, depth, run: (ctx) => evaluateCondition(tree as ConditionNode, ctx, { baseCurrency: '' }) };
}
