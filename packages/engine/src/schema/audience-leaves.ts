import * as z from 'zod';
import { TEXT_ISSUE, isStorableText, textSchema } from './text.ts';

/** `customer.tag_in`: tags as an array, or one comma-separated string (kept as given). */
export const customerTagInSchema = z.object({
  type: z.literal('customer.tag_in'),
  value: z.union([z.array(textSchema), textSchema]),
});

// True when every string in a JSON value (at any depth; walked with a stack) is storable.
function holdsOnlyStorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); stack.length > 0 || item !== undefined; item = stack.pop()) {
    if (typeof item === 'string') {
      if (!isStorableText(item)) return false;
    } else if (Array.isArray(item)) {
      stack.push(...item);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, inner] of Object.entries(item)) {
        if (!isStorableText(key)) return false;
        stack.push(inner);
      }
    }
  }
  return true;
}

/**
 * `customer.is_logged_in`. SPEC: "`value` boolean, required; the strings `true` / `false`
 * are coerced; other values fail closed." So any present value is accepted and stored as
 * sent (a rule saved with `'yes'` reads back `'yes'`); the evaluator answers only for
 * true/false/'true'/'false' and fails closed (`invalid_value`) for anything else.
 */
export const customerIsLoggedInSchema = z.object({
  type: z.literal('customer.is_logged_in'),
  // z.unknown() keeps the key required: a missing value is still a 400. Whatever is
  // stored must be storable, so every string inside it follows the text rule.
  value: z.unknown().refine(holdsOnlyStorableText, { message: TEXT_ISSUE }).meta({
    description: "true or false (the strings 'true' and 'false' too). Any other value is stored as sent and never matches.",
  }),
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
