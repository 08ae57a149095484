/**
 * The requested cost of a query as the platform calculates it before running it (its documented
 * rules, simplified to what the service sends): a scalar or enum costs 0, an object 1 plus its
 * fields, a connection (a field taking `first` or `last`) 2 plus `first` times the cost of one
 * node, a mutation 10. The platform refuses a query over 1,000 points (MAX_COST_EXCEEDED).
 */
import { Kind } from 'graphql';
import type { OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { argsOf } from './selection.ts';

export const MAX_QUERY_COST = 1000;
const MUTATION_COST = 10;

function selectionCost(set: SelectionSetNode | undefined, variables: Record<string, unknown>): number {
  if (set === undefined) return 0;
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) total += selectionCost(selection.selectionSet, variables);
    if (selection.kind !== Kind.FIELD || selection.selectionSet === undefined) continue;
    const args = argsOf(selection, variables);
    const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : undefined;
    if (size === undefined) {
      total += 1 + selectionCost(selection.selectionSet, variables);
      continue;
    }
    // A connection: one node's cost is its `nodes` (or `edges { node }`) selection as an object.
    let node = 0;
    for (const part of selection.selectionSet.selections) {
      if (part.kind !== Kind.FIELD) continue;
      if (part.name.value === 'nodes') node = Math.max(node, 1 + selectionCost(part.selectionSet, variables));
      if (part.name.value === 'edges') node = Math.max(node, selectionCost(part.selectionSet, variables));
    }
    total += 2 + size * node;
  }
  return total;
}

/** @example requestedCost(parse('{ shop { name } }').definitions[0], {}) // 1 */
export function requestedCost(operation: OperationDefinitionNode, variables: Record<string, unknown>): number {
  if (operation.operation === 'mutation') return MUTATION_COST;
  return selectionCost(operation.selectionSet, variables);
}
