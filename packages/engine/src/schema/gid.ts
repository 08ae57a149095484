import * as z from 'zod';

/**
 * A platform global id of one resource type, `gid://<platform>/<Type>/<digits>`.
 *
 * @example gidSchema('ProductVariant').parse('gid://shopify/ProductVariant/1')
 */
export function gidSchema(resourceType: string): z.ZodString {
  const pattern = new RegExp(`^gid://[A-Za-z0-9._-]+/${resourceType}/\\d+$`);
  return z.string().regex(pattern, {
    message: `Expected a ${resourceType} gid (gid://<platform>/${resourceType}/<digits>)`,
  });
}

/** A bare numeric id: a string of digits or a non-negative integer. */
export const numericIdSchema = z.union([
  z.string().regex(/^\d+$/, { message: 'Expected a numeric id (digits only)' }),
  z.int().nonnegative(),
]);

/**
 * SPEC's "<gid> or numeric id" of one resource type.
 *
 * @example gidOrNumericIdSchema('Product').parse('42')
 */
export function gidOrNumericIdSchema(resourceType: string) {
  return z.union([gidSchema(resourceType), numericIdSchema]);
}

export const productGidSchema = gidSchema('Product');
export const variantGidSchema = gidSchema('ProductVariant');
export const sellingPlanGidSchema = gidSchema('SellingPlan');
