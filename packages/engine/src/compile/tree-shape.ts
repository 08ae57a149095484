/**
 * A condition tree's size and depth as its compiled program counts them: one node per node met in
 * the walk (an empty or malformed combinator is one node), without recursion. The interpreted
 * program (condition-program-interpreted.ts) measures its tree with this only when asked; in the
 * storefront's first load only a trace's node budget would ask, and it builds no traces
 * (planner/rule-trace-absent.ts).
 */
import { isNode } from '../evaluate/evaluate-condition.ts';

/**
 * @example treeShape({ type: 'NOT', child: { type: 'discount.code_present' } }) // { size: 2, depth: 1 }
 */
export function treeShape(tree: unknown): { size: number; depth: number } {
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
  return { size, depth };
}
