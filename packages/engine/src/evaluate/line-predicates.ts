import { numericIdOf } from '../ids.ts';
import type { LeafOf } from '../schema/leaf-node.ts';
import type { LeafOutcome } from './outcomes.ts';
import { OUTCOME } from './outcomes.ts';
import type { PreparedContext, PreparedLine } from './prepare-context.ts';
import { addCollectionKey } from './prepare-context.ts';
import type { LeafPredicate } from './leaf-predicate.ts';
import { isValidThreshold } from './leaf-predicate.ts';
import { compileLineFilter, isOutcome } from './line-filter.ts';

const always = (outcome: LeafOutcome): LeafPredicate => () => outcome;

function compilePresence(
  value: unknown,
  idOf: (line: PreparedLine) => string | undefined,
  idsOf: (ctx: PreparedContext) => ReadonlySet<string>,
  leaf: Parameters<typeof compileLineFilter>[0],
  found: LeafOutcome,
  missing: LeafOutcome,
): LeafPredicate {
  const id = numericIdOf(value);
  if (id === undefined) return always(OUTCOME.invalidId);
  const filter = compileLineFilter(leaf);
  if (isOutcome(filter)) return always(filter);
  // Without restrictions the prepared id set answers in O(1).
  if (filter === undefined) return (ctx) => (idsOf(ctx).has(id) ? found : missing);
  return (ctx) => {
    for (const line of ctx.lines) if (idOf(line) === id && filter(line)) return found;
    return missing;
  };
}

const productOf = (line: PreparedLine) => line.productId;
const variantOf = (line: PreparedLine) => line.variantId;

/** `line.has_product_id`: a non-gift line is the product (ids compared numerically). */
export function compileHasProductId(leaf: LeafOf<'line.has_product_id'>): LeafPredicate {
  return compilePresence(leaf.value, productOf, (ctx) => ctx.productIds, leaf, OUTCOME.productInCart, OUTCOME.productNotInCart);
}

/** `line.has_variant_id`: a non-gift line is the variant. */
export function compileHasVariantId(leaf: LeafOf<'line.has_variant_id'>): LeafPredicate {
  return compilePresence(leaf.value, variantOf, (ctx) => ctx.variantIds, leaf, OUTCOME.variantInCart, OUTCOME.variantNotInCart);
}

/**
 * `line.in_collection`: the context's collection map first (keys matched by numeric id,
 * or by handle case-insensitively); when it has no entry for the collection, the lines'
 * `_collections` attribute (comma-separated handles or ids) decides.
 */
export function compileInCollection(leaf: LeafOf<'line.in_collection'>): LeafPredicate {
  const handles = new Set<string>();
  const ids = new Set<string>();
  if (typeof leaf.value === 'number') {
    const id = numericIdOf(leaf.value);
    if (id !== undefined) ids.add(id);
  } else if (typeof leaf.value === 'string') {
    addCollectionKey(leaf.value, handles, ids);
  }
  const [id] = ids;
  const [handle] = handles;
  if (id === undefined && handle === undefined) return always(OUTCOME.invalidValue);
  return (ctx) => {
    const products = id !== undefined ? ctx.collectionsById.get(id) : ctx.collectionsByHandle.get(handle ?? '');
    if (products !== undefined) {
      for (const line of ctx.lines) {
        if (line.productId !== undefined && products.has(line.productId)) return OUTCOME.collectionInCart;
      }
      return OUTCOME.collectionNotInCart;
    }
    for (const line of ctx.lines) {
      if (id !== undefined ? line.collectionIds.has(id) : line.collectionHandles.has(handle ?? '')) {
        return OUTCOME.collectionInCart;
      }
    }
    return OUTCOME.collectionNotInCart;
  };
}

/** `line.quantity_min`: summed quantity of the variant (wins) or product >= value. */
export function compileQuantityMin(leaf: LeafOf<'line.quantity_min'>): LeafPredicate {
  const minimum: unknown = leaf.value;
  if (!isValidThreshold(minimum)) return always(OUTCOME.invalidThreshold);
  const byVariant = leaf.variantId !== undefined;
  if (!byVariant && leaf.productId === undefined) return always(OUTCOME.missingProductOrVariant);
  const id = numericIdOf(byVariant ? leaf.variantId : leaf.productId);
  if (id === undefined) return always(OUTCOME.invalidId);
  const filter = compileLineFilter(leaf);
  if (isOutcome(filter)) return always(filter);
  return (ctx) => {
    let quantity = 0;
    for (const line of ctx.lines) {
      if ((byVariant ? line.variantId : line.productId) !== id) continue;
      if (filter !== undefined && !filter(line)) continue;
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

/** `line.property_equals`: a non-gift line carries the key with the value. */
export function compilePropertyEquals(leaf: LeafOf<'line.property_equals'>): LeafPredicate {
  if (typeof leaf.key !== 'string' || typeof leaf.value !== 'string') return always(OUTCOME.invalidValue);
  const key = stripWrappingQuotes(leaf.key);
  if (key.trim() === '') return always(OUTCOME.emptyPropertyKey);
  const value = stripWrappingQuotes(leaf.value);
  return (ctx) => {
    for (const line of ctx.lines) {
      const attributes = line.attributes;
      if (attributes === undefined || !Object.hasOwn(attributes, key)) continue;
      const actual = attributes[key];
      if (typeof actual === 'string' && stripWrappingQuotes(actual) === value) return OUTCOME.propertyFound;
    }
    return OUTCOME.propertyNotFound;
  };
}

/** `line.has_selling_plan`: whether a non-gift subscription line exists (empty = has). */
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
