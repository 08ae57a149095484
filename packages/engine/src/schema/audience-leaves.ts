import * as z from 'zod';
import { textSchema } from './text.ts';

/** `customer.tag_in`: tags as an array, or one comma-separated string (kept as given). */
export const customerTagInSchema = z.object({
  type: z.literal('customer.tag_in'),
  value: z.union([z.array(textSchema), textSchema]),
});

/** `customer.is_logged_in`: a boolean, or the strings 'true' / 'false'. */
export const customerIsLoggedInSchema = z.object({
  type: z.literal('customer.is_logged_in'),
  value: z.union([z.boolean(), z.enum(['true', 'false'])]),
});

/** `market.handle_in`: the active market's handle is one of these (case-insensitive). */
export const marketHandleInSchema = z.object({
  type: z.literal('market.handle_in'),
  value: z.array(textSchema),
});

/** `country.in`: the market country is one of these ISO 3166 alpha-2 codes. */
export const countryInSchema = z.object({
  type: z.literal('country.in'),
  value: z.array(z.string().regex(/^[A-Za-z]{2}$/, { message: 'Expected a 2-letter country code' })),
});

/** `discount.code_present`: at least one discount code is applied. */
export const discountCodePresentSchema = z.object({ type: z.literal('discount.code_present') });

/** `discount.code_not_present`: no discount code is applied. */
export const discountCodeNotPresentSchema = z.object({
  type: z.literal('discount.code_not_present'),
});

/** `discount.code_equals`: this code is applied (compared uppercased and trimmed). */
export const discountCodeEqualsSchema = z.object({
  type: z.literal('discount.code_equals'),
  value: textSchema,
});
