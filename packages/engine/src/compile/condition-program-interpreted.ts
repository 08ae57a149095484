/**
 * condition-program.ts for the storefront bundle (packages/storefront/scripts/build-script.ts):
 * the same `compileConditionProgram`, whose `run` walks the tree with the engine's iterative
 * interpreter (evaluate-condition.ts, any depth, leaves compiled once per node) instead of a
 * flat program. A page evaluates a few rules a few times, so the program's speed buys nothing
 * there and its code is bytes of the first load. Held to condition-program.ts by
 * test/condition-program-interpreted.test.ts.
 */
import type { ConditionNode } from '../schema/condition-node.ts';
import { evaluateCondition } from '../evaluate/evaluate-condition.ts';
import { treeShape } from './tree-shape.ts';
import type { ConditionProgram } from './condition-program.ts';

export type { ConditionProgram };

/**
 * @example compileConditionProgram(rule.conditionTree).run(prepared).matched
 */
export function compileConditionProgram(tree: unknown): ConditionProgram {
  return {
    // Measured when read: only a trace's node budget reads them (tree-shape.ts).
    get size() {
      return treeShape(tree).size;
    },
    get depth() {
      return treeShape(tree).depth;
    },
    // A prepared context is used as it is: the options only serve a raw one.
    run: (ctx) => evaluateCondition(tree as ConditionNode, ctx, { baseCurrency: '' }),
  };
}
