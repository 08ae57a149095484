/**
 * The platform's `refunds/create` and `orders/cancelled` payloads (CONTRACT part three "Refunds
 * and repairs"), as its REST webhooks send them, turned into one give-back request. As in
 * platform-webhooks/payloads.ts, fields not used are not read: the platform adds fields over API
 * versions, and a refund carries many (transactions, duties, shipping lines) the service needs not.
 */
import { z } from 'zod';
import { timestampInputSchema } from '../http/timestamp.ts';
import { MAX_LINE_QUANTITY } from '../orders/schema.ts';
import { platformIdSchema, propertySchema } from '../platform-webhooks/payloads.ts';

/**
 * One refunded line's units and the attributes of the order line it refunds; its variant, and
 * whether the platform discounted the whole line (a repaired gift has no attributes: it is
 * recognized by these two, docs/repairs.md "Refunds and cancellations of a repaired gift").
 */
export type RefundedLine = { lineItemId: string; quantity: number; attributes: Record<string, string>; variantId: string | null; fullyDiscounted: boolean };

/** What to give back for an order: a refund's lines, or everything (a cancellation). */
export type GiveBackRequest =
  | { kind: 'refund'; orderId: string; refundId: string; at: Date | null; lines: RefundedLine[] }
  | { kind: 'cancel'; orderId: string; at: Date };

/** A money amount as the platform writes it ("19.99"; a bare number is taken too), in cents. */
const centsSchema = z
  .union([z.string().regex(/^\s*\d{1,15}(\.\d+)?\s*$/, 'Expected a decimal amount such as "19.99"'), z.number().nonnegative().max(1e15)])
  .transform((value) => Math.round(Number(value) * 100));

const refundLineItemSchema = z.object({
  line_item_id: platformIdSchema,
  // The platform refunds whole units; 0 appears on lines only restocked or adjusted.
  quantity: z.int().min(0).max(MAX_LINE_QUANTITY),
  line_item: z
    .object({
      properties: z.array(propertySchema).max(250).nullish(),
      variant_id: platformIdSchema.nullish(),
      // The order line's own quantity, unit price and discounts (the whole line's).
      quantity: z.int().min(0).max(MAX_LINE_QUANTITY).nullish(),
      price: centsSchema.nullish(),
      total_discount: centsSchema.nullish(),
      discount_allocations: z.array(z.object({ amount: centsSchema })).max(250).nullish(),
    })
    .nullish(),
});

type RefundLineItem = z.infer<typeof refundLineItemSchema>;

/**
 * Whether the refunded order line was free: its discounts (the larger of `total_discount` and the
 * sum of `discount_allocations`, since API versions fill one or the other) cover its price times
 * its quantity. A line without a price is not taken for free.
 */
function fullyDiscounted(item: RefundLineItem): boolean {
  const line = item.line_item;
  if (line?.price === undefined || line.price === null) return false;
  const allocated = (line.discount_allocations ?? []).reduce((sum, allocation) => sum + allocation.amount, 0);
  return Math.max(line.total_discount ?? 0, allocated) >= line.price * (line.quantity ?? item.quantity);
}

/**
 * `refunds/create` → a refund give-back. Gift lines are recognized as intake recognizes them:
 * by the `_svc_*` properties of the refunded line item (`line_item.properties`); a repaired gift
 * line (no properties) by its `variant_id` and its being fully discounted. The refund's
 * own `created_at` (else `processed_at`) is the day analytics report it on.
 *
 * @example
 *   refundPayloadSchema.parse({ id: 1, order_id: 2, refund_line_items: [] }); // { kind: 'refund', orderId: '2', refundId: '1', at: null, lines: [] }
 */
export const refundPayloadSchema = z
  .object({
    id: platformIdSchema,
    order_id: platformIdSchema,
    created_at: timestampInputSchema.nullish(),
    processed_at: timestampInputSchema.nullish(),
    refund_line_items: z.array(refundLineItemSchema).max(1000),
  })
  .transform(
    (payload): GiveBackRequest => ({
      kind: 'refund',
      orderId: payload.order_id,
      refundId: payload.id,
      at: payload.created_at ?? payload.processed_at ?? null,
      lines: payload.refund_line_items.map((item) => ({
        lineItemId: item.line_item_id,
        quantity: item.quantity,
        attributes: Object.fromEntries((item.line_item?.properties ?? []).map((property) => [property.name, property.value])),
        variantId: item.line_item?.variant_id ?? null,
        fullyDiscounted: fullyDiscounted(item),
      })),
    }),
  );

/**
 * `orders/cancelled` (the order payload with `cancelled_at`) → a cancellation give-back. The
 * order's own lines are not read: intake stored them, and a cancellation gives back all of them.
 *
 * @example
 *   cancelPayloadSchema.parse({ id: 2, cancelled_at: '2026-01-16T10:00:00Z' }); // { kind: 'cancel', orderId: '2', at: Date }
 */
export const cancelPayloadSchema = z
  .object({
    id: platformIdSchema,
    cancelled_at: timestampInputSchema,
  })
  .transform((payload): GiveBackRequest => ({ kind: 'cancel', orderId: payload.id, at: payload.cancelled_at }));
