import type { LeafNode, LeafOf, LeafType } from '../schema/leaf-node.ts';
import * as OUTCOME from './outcome-table.ts';
import type { LeafPredicate } from './leaf-predicate.ts';
import { compileItemCountGte, compileSubtotalGte, compileSubtotalLte, compileTotalGte } from './cart-predicates.ts';
import {
  compileHasProductId,
  compileHasSellingPlan,
  compileHasVariantId,
  compileInCollection,
  compilePropertyEquals,
  compileQuantityMin,
} from './line-predicates.ts';
import {
  compileCodeEquals,
  compileCodeNotPresent,
  compileCodePresent,
  compileCountryIn,
  compileIsLoggedIn,
  compileMarketHandleIn,
  compileTagIn,
} from './audience-predicates.ts';

/**
 * Each leaf's predicate builder: the leaf registry's predicate piece (see leaves/registry.ts),
 * kept here because the storefront's bundle loads this module and must not load the rest.
 * A leaf type without its builder is a compile error.
 */
const PREDICATES = {
  'cart.subtotal_gte': compileSubtotalGte,
  'cart.subtotal_lte': compileSubtotalLte,
  'cart.total_gte': compileTotalGte,
  'cart.item_count_gte': compileItemCountGte,
  'line.has_product_id': compileHasProductId,
  'line.has_variant_id': compileHasVariantId,
  'line.in_collection': compileInCollection,
  'line.quantity_min': compileQuantityMin,
  'line.property_equals': compilePropertyEquals,
  'line.has_selling_plan': compileHasSellingPlan,
  'customer.tag_in': compileTagIn,
  'customer.is_logged_in': compileIsLoggedIn,
  'market.handle_in': compileMarketHandleIn,
  'country.in': compileCountryIn,
  'discount.code_present': compileCodePresent,
  'discount.code_not_present': compileCodeNotPresent,
  'discount.code_equals': compileCodeEquals,
} satisfies { [K in LeafType]: (leaf: LeafOf<K>) => LeafPredicate };

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
