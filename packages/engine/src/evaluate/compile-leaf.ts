import type { LeafNode } from '../leaves/registry.ts';
import { PREDICATES } from '../leaves/registry.ts';
import * as OUTCOME from './outcome-table.ts';
import type { LeafPredicate } from './leaf-predicate.ts';

// Trees are treated as immutable values, so a leaf object compiles once however many
// times it is evaluated; the WeakMap lets unused trees be collected.
const cache = new WeakMap<object, LeafPredicate>();
const unknownLeaf: LeafPredicate = () => OUTCOME.unknownType;

/**
 * The predicate of one leaf. This is the only implementation of leaf semantics: the
 * short-circuit evaluator, the tracer and compiled rules all call it, so they cannot
 * disagree on a leaf. A type that is not a leaf (an unvalidated tree: the planner reads
 * payloads without schemas) fails closed with `unknown_type`.
 *
 * @example compileLeaf({ type: 'cart.subtotal_gte', value: 5000 })(prepared).matched
 */
export function compileLeaf(leaf: LeafNode): LeafPredicate {
  const cached = cache.get(leaf);
  if (cached !== undefined) return cached;
  // TypeScript cannot tie `leaf.type` to its builder's parameter (a union of functions); the
  // `satisfies` above ties each builder to its own leaf.
  const build = Object.hasOwn(PREDICATES, leaf.type) ? (PREDICATES[leaf.type] as (leaf: LeafNode) => LeafPredicate) : undefined;
  const predicate = build === undefined ? unknownLeaf : build(leaf);
  cache.set(leaf, predicate);
  return predicate;
}
