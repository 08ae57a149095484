import * as z from 'zod';

/**
 * A platform global id of one resource type, `gid://<platform>/<Type>/<digits>`.
 *
 * @example gidSchema('ProductVariant').parse('gid://shopify/ProductVariant/1')
 */
export function gidSchema(resourceType: string): z.ZodString {
  return z.string().regex(gidPattern(resourceType), {
    message: `Expected a ${resourceType} gid (gid://<platform>/${resourceType}/<digits>)`,
  });
}

/**
 * The pattern {@link gidSchema} checks, for code that checks without Zod (evaluation-context-fast.ts).
 *
 * @example gidPattern('Product').test('gid://shopify/Product/1') // true
 */
export function gidPattern(resourceType: string): RegExp {
  return new RegExp(`^gid://[A-Za-z0-9._-]+/${resourceType}/\\d+$`);
}

/** The string form of a bare numeric id. */
export const NUMERIC_ID_PATTERN = /^\d+$/;

/** A bare numeric id: a string of digits or a non-negative integer. */
export const numericIdSchema = z.union([
  z.string().regex(NUMERIC_ID_PATTERN, { message: 'Expected a numeric id (digits only)' }),
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
