import * as z from 'zod';
import { textSchema } from './text.ts';

// Thresholds are integers in minor units. Negative values are accepted at save time on
// purpose: SPEC makes the evaluator fail closed on them, and rejecting them here would
// make stored trees written by older clients unreadable.
const minorUnits = z.int();

/** A map currency code or market handle -> threshold in minor units. */
const overridesSchema = z.record(textSchema, minorUnits);

function thresholdLeaf<T extends string>(type: T) {
  return z.object({
    type: z.literal(type),
    value: minorUnits,
    currencyOverrides: overridesSchema.optional(),
    marketOverrides: overridesSchema.optional(),
  });
}

/** `cart.subtotal_gte`: subtotal of the non-gift lines >= the resolved threshold. */
export const cartSubtotalGteSchema = thresholdLeaf('cart.subtotal_gte');
/** `cart.subtotal_lte`: subtotal of the non-gift lines <= the resolved threshold. */
export const cartSubtotalLteSchema = thresholdLeaf('cart.subtotal_lte');
/** `cart.total_gte`: subtotal + shipping + tax >= the resolved threshold. */
export const cartTotalGteSchema = thresholdLeaf('cart.total_gte');

/** `cart.item_count_gte`: summed quantity of the non-gift lines >= value. */
export const cartItemCountGteSchema = z.object({
  type: z.literal('cart.item_count_gte'),
  value: z.int(),
});
