import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';
import type { LeafOf } from '../schema/leaf-node.ts';
import type { LeafOutcome } from './outcomes.ts';
import * as OUTCOME from './outcome-table.ts';
import type { PreparedContext, PreparedLine } from './prepare-context.ts';
import { preparedLines } from './prepare-context.ts';
import { collectionHasProductIn, collectionName } from './collection-map.ts';
import type { LeafPredicate } from './leaf-predicate.ts';
import { always, isValidThreshold } from './leaf-predicate.ts';
import { compileLineFilter, isOutcome } from './line-filter.ts';


function compilePresence(
  value: unknown,
  idOf: (line: PreparedLine) => IdKey | undefined,
  idsOf: (ctx: PreparedContext) => ReadonlyMap<IdKey, number>,
  leaf: Parameters<typeof compileLineFilter>[0],
  found: LeafOutcome,
  missing: LeafOutcome,
): LeafPredicate {
  const id = idKeyOf(value);
  if (id === undefined) return always(OUTCOME.invalidId);
  const filter = compileLineFilter(leaf);
  if (isOutcome(filter)) return always(filter);
  // Without restrictions the prepared id set answers in O(1).
  if (filter === undefined) return (ctx) => (idsOf(ctx).has(id) ? found : missing);
  return (ctx) => {
    for (const line of preparedLines(ctx)) if (idOf(line) === id && filter(line)) return found;
    return missing;
  };
}

const productOf = (line: PreparedLine) => line.productId;
const variantOf = (line: PreparedLine) => line.variantId;

/**
 * `line.has_product_id`: a non-gift line is the product (ids compared numerically).
 *
 * @example compileHasProductId({ type: 'line.has_product_id', value: '42', sellingPlanIds: ['_otp'] })(prepared)
 */
export function compileHasProductId(leaf: LeafOf<'line.has_product_id'>): LeafPredicate {
  return compilePresence(leaf.value, productOf, (ctx) => ctx.productQuantities, leaf, OUTCOME.productInCart, OUTCOME.productNotInCart);
}

/**
 * `line.has_variant_id`: a non-gift line is the variant.
 *
 * @example compileHasVariantId({ type: 'line.has_variant_id', value: 'gid://shopify/ProductVariant/7' })(prepared)
 */
export function compileHasVariantId(leaf: LeafOf<'line.has_variant_id'>): LeafPredicate {
  return compilePresence(leaf.value, variantOf, (ctx) => ctx.variantQuantities, leaf, OUTCOME.variantInCart, OUTCOME.variantNotInCart);
}

/**
 * `line.in_collection`: the context's collection map first (keys matched by numeric id,
 * or by handle case-insensitively); when it has no entry for the collection, the lines'
 * `_collections` attribute (comma-separated handles or ids) decides.
 *
 * @example compileInCollection({ type: 'line.in_collection', value: 'summer' })(prepared)
 */
export function compileInCollection(leaf: LeafOf<'line.in_collection'>): LeafPredicate {
  const value: unknown = leaf.value;
  const reference = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const name = collectionName(reference);
  if (name === undefined) return always(OUTCOME.invalidValue);
  // The `_collections` fallback matches ids by id and handles case-insensitively.
  const id = idKeyOf(reference);
  const handle = reference.toLowerCase();
  return (ctx) => {
    let hit = ctx.collectionHits.get(name);
    if (hit === undefined) {
      hit = collectionHasProductIn(ctx.collections, name, ctx.productQuantities) ?? anyLineTagged(ctx, id, handle);
      ctx.collectionHits.set(name, hit);
    }
    return hit ? OUTCOME.collectionInCart : OUTCOME.collectionNotInCart;
  };
}

function anyLineTagged(ctx: PreparedContext, id: IdKey | undefined, handle: string): boolean {
  for (const line of preparedLines(ctx)) {
    if (id !== undefined ? line.collectionIds.has(id) : line.collectionHandles.has(handle)) return true;
  }
  return false;
}

/**
 * `line.quantity_min`: summed quantity of the variant (wins) or product >= value.
 *
 * @example compileQuantityMin({ type: 'line.quantity_min', value: 2, productId: 'gid://shopify/Product/1' })(prepared)
 */
export function compileQuantityMin(leaf: LeafOf<'line.quantity_min'>): LeafPredicate {
  const minimum: unknown = leaf.value;
  if (!isValidThreshold(minimum)) return always(OUTCOME.invalidThreshold);
  const byVariant = leaf.variantId !== undefined;
  if (!byVariant && leaf.productId === undefined) return always(OUTCOME.missingProductOrVariant);
  const id = idKeyOf(byVariant ? leaf.variantId : leaf.productId);
  if (id === undefined) return always(OUTCOME.invalidId);
  const filter = compileLineFilter(leaf);
  if (isOutcome(filter)) return always(filter);
  if (filter === undefined) {
    return (ctx) => {
      const quantity = (byVariant ? ctx.variantQuantities : ctx.productQuantities).get(id) ?? 0;
      return quantity >= minimum ? OUTCOME.quantityReached : OUTCOME.quantityBelow;
    };
  }
  return (ctx) => {
    let quantity = 0;
    for (const line of preparedLines(ctx)) {
      if ((byVariant ? line.variantId : line.productId) !== id) continue;
      if (!filter(line)) continue;
      quantity += line.quantity;
    }
    return quantity >= minimum ? OUTCOME.quantityReached : OUTCOME.quantityBelow;
  };
}

/**
 * Removes one pair of wrapping single or double quotes (SPEC: stripped from both sides
 * of `line.property_equals` before comparing).
 *
 * @example stripWrappingQuotes('"gift"') // 'gift'
 */
export function stripWrappingQuotes(text: string): string {
  if (text.length < 2) return text;
  const first = text.charAt(0);
  return (first === '"' || first === "'") && text.charAt(text.length - 1) === first ? text.slice(1, -1) : text;
}

/**
 * `line.property_equals`: a non-gift line carries the key with the value.
 *
 * @example compilePropertyEquals({ type: 'line.property_equals', key: 'gift_wrap', value: '"yes"' })(prepared)
 */
export function compilePropertyEquals(leaf: LeafOf<'line.property_equals'>): LeafPredicate {
  if (typeof leaf.key !== 'string' || typeof leaf.value !== 'string') return always(OUTCOME.invalidValue);
  const key = stripWrappingQuotes(leaf.key);
  if (key.trim() === '') return always(OUTCOME.emptyPropertyKey);
  const value = stripWrappingQuotes(leaf.value);
  return (ctx) => {
    for (const line of preparedLines(ctx)) {
      const attributes = line.attributes;
      if (attributes === undefined || !Object.hasOwn(attributes, key)) continue;
      const actual = attributes[key];
      if (typeof actual === 'string' && stripWrappingQuotes(actual) === value) return OUTCOME.propertyFound;
    }
    return OUTCOME.propertyNotFound;
  };
}

/**
 * `line.has_selling_plan`: whether a non-gift subscription line exists (empty = has).
 *
 * @example compileHasSellingPlan({ type: 'line.has_selling_plan', value: 'no_subscription' })(prepared)
 */
export function compileHasSellingPlan(leaf: LeafOf<'line.has_selling_plan'>): LeafPredicate {
  const wanted = leaf.value === undefined || leaf.value === '' ? 'has_subscription' : leaf.value;
  if (wanted === 'has_subscription') {
    return (ctx) => (ctx.hasSubscriptionLine ? OUTCOME.subscriptionInCart.yes : OUTCOME.noSubscriptionInCart.no);
  }
  if (wanted === 'no_subscription') {
    return (ctx) => (ctx.hasSubscriptionLine ? OUTCOME.subscriptionInCart.no : OUTCOME.noSubscriptionInCart.yes);
  }
  return always(OUTCOME.invalidValue);
}
