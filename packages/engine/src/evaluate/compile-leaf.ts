import type { LeafNode } from '../schema/leaf-node.ts';
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

// Trees are treated as immutable values, so a leaf object compiles once however many
// times it is evaluated; the WeakMap lets unused trees be collected.
const cache = new WeakMap<object, LeafPredicate>();
const unknownLeaf: LeafPredicate = () => OUTCOME.unknownType;

/**
 * The predicate of one leaf. This is the only implementation of leaf semantics: the
 * short-circuit evaluator, the tracer and compiled rules all call it, so they cannot
 * disagree on a leaf. An unknown type fails closed.
 *
 * @example compileLeaf({ type: 'cart.subtotal_gte', value: 5000 })(prepared).matched
 */
export function compileLeaf(leaf: LeafNode): LeafPredicate {
  const cached = cache.get(leaf);
  if (cached !== undefined) return cached;
  const predicate = build(leaf);
  cache.set(leaf, predicate);
  return predicate;
}

function build(leaf: LeafNode): LeafPredicate {
  switch (leaf.type) {
    case 'cart.subtotal_gte': return compileSubtotalGte(leaf);
    case 'cart.subtotal_lte': return compileSubtotalLte(leaf);
    case 'cart.total_gte': return compileTotalGte(leaf);
    case 'cart.item_count_gte': return compileItemCountGte(leaf);
    case 'line.has_product_id': return compileHasProductId(leaf);
    case 'line.has_variant_id': return compileHasVariantId(leaf);
    case 'line.in_collection': return compileInCollection(leaf);
    case 'line.quantity_min': return compileQuantityMin(leaf);
    case 'line.property_equals': return compilePropertyEquals(leaf);
    case 'line.has_selling_plan': return compileHasSellingPlan(leaf);
    case 'customer.tag_in': return compileTagIn(leaf);
    case 'customer.is_logged_in': return compileIsLoggedIn(leaf);
    case 'market.handle_in': return compileMarketHandleIn(leaf);
    case 'country.in': return compileCountryIn(leaf);
    case 'discount.code_present': return compileCodePresent();
    case 'discount.code_not_present': return compileCodeNotPresent();
    case 'discount.code_equals': return compileCodeEquals(leaf);
    default: return unknownLeaf;
  }
}
