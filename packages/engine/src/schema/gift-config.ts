import * as z from 'zod';
import { variantGidSchema } from './gid.ts';

/** One gift: a product variant and how many of it are given. */
export const giftSchema = z.object({
  variantId: variantGidSchema,
  quantity: z.int().min(1),
});

/**
 * A rule's gift configuration. Only `fixed` (give exactly these gifts) exists today.
 * `fallbackOnOOS`: when a gift is out of stock, give the next available one instead.
 *
 * @example giftConfigSchema.parse({ type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 1 }] })
 * // -> { type: 'fixed', gifts: [...], fallbackOnOOS: false }
 */
export const giftConfigSchema = z.object({
  type: z.enum(['fixed']),
  gifts: z.array(giftSchema).min(1),
  fallbackOnOOS: z.boolean().default(false),
});

export type Gift = z.output<typeof giftSchema>;
export type GiftConfig = z.output<typeof giftConfigSchema>;
