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

/** One refunded line's units and the attributes of the order line it refunds. */
export type RefundedLine = { lineItemId: string; quantity: number; attributes: Record<string, string> };

/** What to give back for an order: a refund's lines, or everything (a cancellation). */
export type GiveBackRequest =
  | { kind: 'refund'; orderId: string; refundId: string; at: Date | null; lines: RefundedLine[] }
  | { kind: 'cancel'; orderId: string; at: Date };

const refundLineItemSchema = z.object({
  line_item_id: platformIdSchema,
  // The platform refunds whole units; 0 appears on lines only restocked or adjusted.
  quantity: z.int().min(0).max(MAX_LINE_QUANTITY),
  line_item: z.object({ properties: z.array(propertySchema).max(250).nullish() }).nullish(),
});

/**
 * `refunds/create` → a refund give-back. Gift lines are recognized as intake recognizes them:
 * by the `_svc_*` properties of the refunded line item (`line_item.properties`). The refund's
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
