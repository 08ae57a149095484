import type { ConditionNode, EvaluationContext, EvaluationOptions } from '../../src/index.ts';
import { compileConditionProgram, evaluateCondition, prepareContext, traceCondition } from '../../src/index.ts';

/** The three evaluators' answers for one tree and context. */
export function evaluateAllWays(tree: ConditionNode, ctx: EvaluationContext, options: EvaluationOptions) {
  const prepared = prepareContext(ctx, options);
  return {
    shortCircuit: evaluateCondition(tree, prepared, options),
    trace: traceCondition(tree, prepared, options),
    compiled: compileConditionProgram(tree).run(prepared),
  };
}
