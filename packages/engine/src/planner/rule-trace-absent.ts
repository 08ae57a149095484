/**
 * rule-trace.ts and compile/tree-shape.ts for the storefront's first load
 * (packages/storefront/scripts/build-script.ts): the script never asks the planner for traces
 * (`trace` stays off), so the trace builder, its node budget and the tree measure the budget
 * reads are left out; the `?svc_debug=1` console is its own chunk, built with the real modules.
 * Asking for a trace in such a build is a programming error, and says so.
 */
import type { RuleTracer, TraceOptions } from './rule-trace.ts';

const absent = (): never => {
  throw new Error('no condition traces in this build');
};

export function ruleTracer(options: TraceOptions): RuleTracer | undefined {
  return options.trace === true ? absent() : undefined;
}

/** Only a trace's node budget measures a tree (a program's size). */
export const treeShape: (tree: unknown) => { size: number; depth: number } = absent;
