import * as z from 'zod';
import { variantGidSchema } from './gid.ts';
import { MAX_GIFT_SETS } from './literals.ts';

/** One gift: a product variant and how many of it are given. */
export const giftSchema = z.object({
  variantId: variantGidSchema,
  quantity: z.int().min(1),
});

/**
 * A repeatable gift: one gift set (the chosen gift × its quantity) per `every` non-gift items
 * (`of: 'items'`) or per `every` minor units of the non-gift subtotal (`of: 'subtotal'`),
 * at most `max` sets. A subtotal `every` is in the shop's base currency, like a threshold's
 * `value`; `currencyOverrides` gives it per cart currency, and a cart in another currency
 * without an override gets no set (fail closed, as `cart.subtotal_gte` does).
 *
 * @example perSchema.parse({ every: 3, of: 'items', max: 5 }) // one gift per 3 items, at most 5
 */
export const perSchema = z.object({
  every: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  of: z.enum(['items', 'subtotal']),
  max: z.int().min(1).max(MAX_GIFT_SETS),
  currencyOverrides: z
    .record(z.string().regex(/^[A-Za-z]{3}$/), z.int().min(1).max(Number.MAX_SAFE_INTEGER))
    .optional()
    .meta({ description: '`of: subtotal` only: `every` in minor units of the cart currency named' }),
});

/**
 * A rule's gift configuration. Only `fixed` (give exactly these gifts) exists today.
 * `fallbackOnOOS`: when a gift is out of stock, give the next available one instead.
 * `per`: optional, makes the gift repeat (see {@link perSchema}); absent = one set.
 *
 * @example giftConfigSchema.parse({ type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 1 }] })
 * // -> { type: 'fixed', gifts: [...], fallbackOnOOS: false }
 */
export const giftConfigSchema = z.object({
  type: z.enum(['fixed']),
  gifts: z.array(giftSchema).min(1),
  fallbackOnOOS: z.boolean().default(false),
  per: perSchema.optional(),
});

export type Gift = z.output<typeof giftSchema>;
export type GiftPer = z.output<typeof perSchema>;
export type GiftConfig = z.output<typeof giftConfigSchema>;
