/**
 * The platform's compliance webhook payloads (CONTRACT part three "Compliance webhooks"), as it
 * sends them: `shop_id`, `shop_domain`, `customer: { id, email, phone }`, `orders_requested` /
 * `orders_to_redact` (order ids) and `data_request: { id }`. Ids are 64-bit integers written as
 * bare JSON numbers (kept exact by platform-webhooks/lossless-json.ts). The service keys a
 * customer by id only: `email` and `phone` are read (the platform may send null) and not kept.
 */
import { z } from 'zod';

/** A platform id: digits (a large one, from lossless-json.ts) or a safe integer. */
const platformIdSchema = z
  .union([z.string().regex(/^\d{1,20}$/), z.int().nonnegative()], { error: 'Expected a numeric platform id' })
  .transform(String);

/** Far beyond one customer's orders; read in batches (customer-data.ts). */
const MAX_ORDER_IDS = 100_000;

const customerSchema = z.object({
  id: platformIdSchema,
  email: z.string().nullish(),
  phone: z.string().nullish(),
});

/** `customers/data_request`. */
export const customerDataRequestSchema = z.object({
  shop_id: platformIdSchema.optional(),
  shop_domain: z.string().optional(),
  customer: customerSchema,
  orders_requested: z.array(platformIdSchema).max(MAX_ORDER_IDS).nullish(),
  data_request: z.object({ id: platformIdSchema }),
});

/** `customers/redact`. */
export const customerRedactSchema = z.object({
  shop_id: platformIdSchema.optional(),
  shop_domain: z.string().optional(),
  customer: customerSchema,
  orders_to_redact: z.array(platformIdSchema).max(MAX_ORDER_IDS).nullish(),
});

/** `shop/redact`: only which shop (the header names it too). */
export const shopRedactSchema = z.object({
  shop_id: platformIdSchema.optional(),
  shop_domain: z.string().optional(),
});
