import * as z from 'zod';
import {
  cartItemCountGteSchema,
  cartSubtotalGteSchema,
  cartSubtotalLteSchema,
  cartTotalGteSchema,
} from './cart-leaves.ts';
import {
  lineHasProductIdSchema,
  lineHasSellingPlanSchema,
  lineHasVariantIdSchema,
  lineInCollectionSchema,
  linePropertyEqualsSchema,
  lineQuantityMinSchema,
} from './line-leaves.ts';
import {
  countryInSchema,
  customerIsLoggedInSchema,
  customerTagInSchema,
  discountCodeEqualsSchema,
  discountCodeNotPresentSchema,
  discountCodePresentSchema,
  marketHandleInSchema,
} from './audience-leaves.ts';

/**
 * Every leaf schema, keyed by its `type`, in SPEC's table order: the leaf registry's schema
 * piece and the source of `LeafType` (the other pieces are keyed by it and checked with
 * `satisfies`; see leaves/registry.ts).
 */
export const LEAF_SCHEMAS = {
  'cart.subtotal_gte': cartSubtotalGteSchema,
  'cart.subtotal_lte': cartSubtotalLteSchema,
  'cart.total_gte': cartTotalGteSchema,
  'cart.item_count_gte': cartItemCountGteSchema,
  'line.has_product_id': lineHasProductIdSchema,
  'line.has_variant_id': lineHasVariantIdSchema,
  'line.in_collection': lineInCollectionSchema,
  'line.quantity_min': lineQuantityMinSchema,
  'line.property_equals': linePropertyEqualsSchema,
  'line.has_selling_plan': lineHasSellingPlanSchema,
  'customer.tag_in': customerTagInSchema,
  'customer.is_logged_in': customerIsLoggedInSchema,
  'market.handle_in': marketHandleInSchema,
  'country.in': countryInSchema,
  'discount.code_present': discountCodePresentSchema,
  'discount.code_not_present': discountCodeNotPresentSchema,
  'discount.code_equals': discountCodeEqualsSchema,
} as const;

export type LeafType = keyof typeof LEAF_SCHEMAS;

/** The leaf type names, in SPEC's table order. */
export const LEAF_TYPES = Object.keys(LEAF_SCHEMAS) as LeafType[];

type LeafSchema = (typeof LEAF_SCHEMAS)[LeafType];

/** Any one leaf node (not recursive, so a plain discriminated union is safe). */
export const leafNodeSchema = z.discriminatedUnion('type', Object.values(LEAF_SCHEMAS) as [LeafSchema, ...LeafSchema[]]);

export type LeafNode = z.output<typeof leafNodeSchema>;

/** The leaf node of one type, e.g. `LeafOf<'cart.subtotal_gte'>`. */
export type LeafOf<T extends LeafType> = Extract<LeafNode, { type: T }>;

/**
 * Whether a string names a leaf type.
 *
 * @example isLeafType('country.in') // true
 */
export function isLeafType(type: string): type is LeafType {
  return Object.hasOwn(LEAF_SCHEMAS, type);
}
