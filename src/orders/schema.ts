/**
 * CONTRACT "Platform orders": the Order both order routes take, one Zod schema. Amounts are
 * integers in minor units of the shop's base currency.
 */
import { gidOrNumericIdSchema, textSchema } from '@gcrs/engine';
import { z } from 'zod';
import { timestampInputSchema } from '../http/timestamp.ts';
import { currencySchema } from '../shops/shop-schemas.ts';

const minorUnits = z.int().min(0).meta({ description: 'Integer minor units of the shop base currency' });

/** Platform customer ids are compared as digits (GET /redemptions takes digits); a gid is reduced to them. */
const customerIdSchema = z
  .union([
    z.string().regex(/^\d{1,32}$/),
    z.string().regex(/^gid:\/\/[A-Za-z0-9._-]+\/Customer\/\d{1,32}$/),
    z.int().nonnegative(),
  ], { error: 'Expected a numeric customer id or a Customer gid' })
  .transform((value) => String(value).replace(/^.*\//, ''));

/**
 * Gift quantities are summed into 32-bit `integer` counters (daily_campaign_stats.gifts_given):
 * a million per line and 1,000 lines keep one order's sum below 2^31 - 1. A larger quantity
 * was a 500 (integer out of range); it is a 400 now.
 */
export const MAX_LINE_QUANTITY = 1_000_000;

export const orderLineSchema = z.object({
  productId: gidOrNumericIdSchema('Product'),
  variantId: gidOrNumericIdSchema('ProductVariant'),
  quantity: z.int().min(1).max(MAX_LINE_QUANTITY),
  price: minorUnits.meta({ description: 'Unit price before discounts, minor units' }),
  /** Line attributes; SPEC's gift line attributes (`_svc_campaign_id`, `_svc_rule_id`…) among them. */
  attributes: z.record(textSchema, textSchema).optional(),
});

export const orderSchema = z.object({
  id: z
    .union([textSchema.trim().min(1).max(255), z.int().nonnegative()])
    .transform(String)
    .meta({ description: 'Platform order id; the same id is counted once' }),
  customerId: customerIdSchema.nullish(),
  // Orders before the Unix epoch are data errors, not history we could have counted: the
  // timestamp range starts there.
  completedAt: timestampInputSchema,
  currency: currencySchema,
  total: minorUnits,
  lines: z.array(orderLineSchema).max(1000),
});

export type Order = z.output<typeof orderSchema>;
export type OrderLine = z.output<typeof orderLineSchema>;

export const orderResponseSchema = z.object({
  ok: z.literal(true),
  duplicate: z.boolean().meta({ description: 'true when this order id was already counted' }),
});
