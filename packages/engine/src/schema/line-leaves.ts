import * as z from 'zod';
import { textSchema } from './text.ts';
import {
  gidOrNumericIdSchema,
  productGidSchema,
  sellingPlanGidSchema,
  variantGidSchema,
} from './gid.ts';

import { ONE_TIME_PURCHASE } from './literals.ts';

export { ONE_TIME_PURCHASE };

// An empty array is accepted here; SPEC makes the evaluator fail closed on it.
const sellingPlanIdsSchema = z.array(z.union([sellingPlanGidSchema, z.literal(ONE_TIME_PURCHASE)]));

const lineRestrictions = {
  sellingPlanIds: sellingPlanIdsSchema.optional(),
  propertyKey: textSchema.optional(),
  propertyValue: textSchema.optional(),
};

/** `line.has_product_id`: at least one non-gift line is the product. */
export const lineHasProductIdSchema = z.object({
  type: z.literal('line.has_product_id'),
  value: gidOrNumericIdSchema('Product'),
  ...lineRestrictions,
});

/** `line.has_variant_id`: at least one non-gift line is the variant. */
export const lineHasVariantIdSchema = z.object({
  type: z.literal('line.has_variant_id'),
  value: gidOrNumericIdSchema('ProductVariant'),
  ...lineRestrictions,
});

/** `line.in_collection`: a collection handle, numeric id or Collection gid. */
export const lineInCollectionSchema = z.object({
  type: z.literal('line.in_collection'),
  value: z.union([textSchema.min(1), z.int().nonnegative()]),
});

/** `line.quantity_min`: summed quantity of a variant (wins) or product >= value. */
export const lineQuantityMinSchema = z.object({
  type: z.literal('line.quantity_min'),
  value: z.int(),
  // Neither id given is accepted at save time; SPEC makes it fail closed at evaluation.
  productId: productGidSchema.optional(),
  variantId: variantGidSchema.optional(),
  ...lineRestrictions,
});

/** `line.property_equals`: a non-gift line has the property key with the value. */
export const linePropertyEqualsSchema = z.object({
  type: z.literal('line.property_equals'),
  key: textSchema,
  value: textSchema,
});

/** `line.has_selling_plan`: whether any non-gift subscription line exists. */
export const lineHasSellingPlanSchema = z.object({
  type: z.literal('line.has_selling_plan'),
  value: z.enum(['has_subscription', 'no_subscription', '']).optional(),
});
