/**
 * The leaf registry. A condition leaf is one file in this folder (see leaf.ts for its four
 * pieces); this module lists the files and derives what the rest of the engine reads. Adding a
 * leaf is its file plus its line in each of the three maps below, in SPEC's table order; the
 * compiler names a map that lacks it (each is checked with `satisfies` over `LeafType`) and a
 * file that lacks a piece. docs/extending.md lists the tests to add.
 *
 * Three maps, not one, because a bundler keeps a whole module namespace once it is used as a
 * value: `PREDICATES` is all the storefront's first load reads, `LEAVES` and `PREDICATES` all
 * the checkout function reads, and only the server and the admin read `LEAF_FILES` (the Zod
 * schemas and the admin's words). test/leaf-bundles.test.ts holds the bundles to that.
 */
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import type { FieldsOf, LeafMeta, LeafSchemaBuilder, NodeOf } from './leaf.ts';
import * as cartSubtotalGte from './cart-subtotal-gte.ts';
import * as cartSubtotalLte from './cart-subtotal-lte.ts';
import * as cartTotalGte from './cart-total-gte.ts';
import * as cartItemCountGte from './cart-item-count-gte.ts';
import * as lineHasProductId from './line-has-product-id.ts';
import * as lineHasVariantId from './line-has-variant-id.ts';
import * as lineInCollection from './line-in-collection.ts';
import * as lineQuantityMin from './line-quantity-min.ts';
import * as linePropertyEquals from './line-property-equals.ts';
import * as lineHasSellingPlan from './line-has-selling-plan.ts';
import * as customerTagIn from './customer-tag-in.ts';
import * as customerIsLoggedIn from './customer-is-logged-in.ts';
import * as marketHandleIn from './market-handle-in.ts';
import * as countryIn from './country-in.ts';
import * as discountCodePresent from './discount-code-present.ts';
import * as discountCodeNotPresent from './discount-code-not-present.ts';
import * as discountCodeEquals from './discount-code-equals.ts';

/** Every leaf's file, keyed by its type: the server's and the admin's view of a leaf. */
export const LEAF_FILES = {
  'cart.subtotal_gte': cartSubtotalGte,
  'cart.subtotal_lte': cartSubtotalLte,
  'cart.total_gte': cartTotalGte,
  'cart.item_count_gte': cartItemCountGte,
  'line.has_product_id': lineHasProductId,
  'line.has_variant_id': lineHasVariantId,
  'line.in_collection': lineInCollection,
  'line.quantity_min': lineQuantityMin,
  'line.property_equals': linePropertyEquals,
  'line.has_selling_plan': lineHasSellingPlan,
  'customer.tag_in': customerTagIn,
  'customer.is_logged_in': customerIsLoggedIn,
  'market.handle_in': marketHandleIn,
  'country.in': countryIn,
  'discount.code_present': discountCodePresent,
  'discount.code_not_present': discountCodeNotPresent,
  'discount.code_equals': discountCodeEquals,
} satisfies Record<string, { schema: LeafSchemaBuilder; predicate: (leaf: never) => LeafPredicate; meta: unknown; form: unknown }>;

export type LeafType = keyof typeof LEAF_FILES;

/** The leaf node of one type, as its schema outputs it, e.g. `LeafOf<'cart.subtotal_gte'>`. */
export type LeafOf<K extends LeafType> = NodeOf<(typeof LEAF_FILES)[K]['schema']>;

/** Any one leaf node. */
export type LeafNode = { [K in LeafType]: LeafOf<K> }[LeafType];

/** A leaf's field names (its keys but `type`). */
export type FieldOf<K extends LeafType> = FieldsOf<LeafOf<K>>;

/** Each leaf's wire code, plan and compact fields (see {@link LeafMeta}). */
export const LEAVES = {
  'cart.subtotal_gte': cartSubtotalGte.meta,
  'cart.subtotal_lte': cartSubtotalLte.meta,
  'cart.total_gte': cartTotalGte.meta,
  'cart.item_count_gte': cartItemCountGte.meta,
  'line.has_product_id': lineHasProductId.meta,
  'line.has_variant_id': lineHasVariantId.meta,
  'line.in_collection': lineInCollection.meta,
  'line.quantity_min': lineQuantityMin.meta,
  'line.property_equals': linePropertyEquals.meta,
  'line.has_selling_plan': lineHasSellingPlan.meta,
  'customer.tag_in': customerTagIn.meta,
  'customer.is_logged_in': customerIsLoggedIn.meta,
  'market.handle_in': marketHandleIn.meta,
  'country.in': countryIn.meta,
  'discount.code_present': discountCodePresent.meta,
  'discount.code_not_present': discountCodeNotPresent.meta,
  'discount.code_equals': discountCodeEquals.meta,
} satisfies { [K in LeafType]: LeafMeta<LeafOf<K>> };

/** Each leaf's predicate builder. */
export const PREDICATES = {
  'cart.subtotal_gte': cartSubtotalGte.predicate,
  'cart.subtotal_lte': cartSubtotalLte.predicate,
  'cart.total_gte': cartTotalGte.predicate,
  'cart.item_count_gte': cartItemCountGte.predicate,
  'line.has_product_id': lineHasProductId.predicate,
  'line.has_variant_id': lineHasVariantId.predicate,
  'line.in_collection': lineInCollection.predicate,
  'line.quantity_min': lineQuantityMin.predicate,
  'line.property_equals': linePropertyEquals.predicate,
  'line.has_selling_plan': lineHasSellingPlan.predicate,
  'customer.tag_in': customerTagIn.predicate,
  'customer.is_logged_in': customerIsLoggedIn.predicate,
  'market.handle_in': marketHandleIn.predicate,
  'country.in': countryIn.predicate,
  'discount.code_present': discountCodePresent.predicate,
  'discount.code_not_present': discountCodeNotPresent.predicate,
  'discount.code_equals': discountCodeEquals.predicate,
} satisfies { [K in LeafType]: (leaf: LeafOf<K>) => LeafPredicate };

/** The leaf type names, in SPEC's table order. */
export const LEAF_TYPES = /* @__PURE__ */ Object.keys(LEAVES) as LeafType[];

/**
 * Whether a string names a leaf type.
 *
 * @example isLeafType('country.in') // true
 */
export function isLeafType(type: string): type is LeafType {
  return Object.hasOwn(LEAVES, type);
}

/** A leaf's record as code that walks every leaf reads it. */
export type AnyLeafRecord = { code: number; plan: LeafMeta<unknown>['plan']; fields: readonly string[]; ids?: readonly string[]; lists?: readonly string[] };

/**
 * A leaf's record through the common shape.
 *
 * @example leafRecord('country.in').code // 13
 */
export const leafRecord = (type: LeafType): AnyLeafRecord => LEAVES[type];

