/**
 * The one writer of the outbox. Every side effect a change promises (webhooks, platform and
 * repair jobs) is an {@link OutboxEvent} written by {@link writeOutbox} inside the transaction of
 * that change: the effect is then committed exactly when the change is, and the dispatcher
 * delivers it later, surviving any crash in between. A unit of work (shops/unit-of-work.ts)
 * collects its events with `uow.enqueue` and writes them here before it commits; work outside
 * one (install, the dispatcher's own follow-up jobs) calls it with its transaction.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { outbox, webhookEndpoints } from '../db/schema.ts';
import { newId } from '../ids.ts';

/** SPEC "Events", outbound webhook kinds. */
export const WEBHOOK_EVENT_TYPES = ['campaign.activated', 'campaign.deactivated', 'gift.added', 'order.converted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The body every delivery POSTs (CONTRACT "Outbound webhooks"). */
export type WebhookPayload = { type: WebhookEventType; timestamp: string; data: { shopId: string; [key: string]: unknown } };

/** The jobs the dispatcher runs besides webhooks (outbox/dispatcher.ts). */
export type JobKind = 'discount_sync' | 'redemptions_sync' | 'order_repair' | 'catalog_import';

/** What a discount sync is told: the campaign whose change caused it, or the shop's first setup. */
export type DiscountSyncPayload = { campaignId: string; active: boolean } | { setup: true };

/**
 * A side effect to deliver later from the outbox (CONTRACT "Outbound webhooks", platform sync):
 * a webhook (one row per subscribed endpoint), or a job, due now or, with `once`, at `once.at`
 * under a fixed id that makes a second write of it a no-op.
 */
export type OutboxEvent =
  | { kind: 'webhook'; type: WebhookEventType; data: Record<string, unknown> }
  | { kind: 'discount_sync'; payload: DiscountSyncPayload; once?: { id: string; at: Date } }
  | { kind: 'redemptions_sync'; payload: { customerId: string } }
  | { kind: 'order_repair'; payload: { orderId: string; ruleId: string } }
  | { kind: 'catalog_import'; payload: { importId: string }; once: { id: string; at: Date } };

type OutboxRow = typeof outbox.$inferInsert;

/** The rows of one webhook kind's events: one per (event, live endpoint subscribed to the kind). */
async function webhookRows(
  tx: Queryable,
  shopId: string,
  type: WebhookEventType,
  events: ReadonlyArray<{ data: Record<string, unknown>; messageId: string }>,
  now: Date,
): Promise<OutboxRow[]> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.shopId, shopId), isNull(webhookEndpoints.disabledAt)));
  const subscribed = endpoints.filter((endpoint) => endpoint.events.length === 0 || endpoint.events.includes(type));
  const timestamp = now.toISOString();
  return events.flatMap(({ data, messageId }) => {
    const payload: WebhookPayload = { type, timestamp, data: { ...data, shopId } };
    return subscribed.map((endpoint) => ({ shopId, id: newId('obx'), kind: 'webhook', endpointId: endpoint.id, messageId, eventType: type, payload, nextAttemptAt: now }));
  });
}

/**
 * Writes `events` for the shop in the caller's transaction, due at `now` unless a job says
 * otherwise. A webhook goes to each of the shop's live endpoints that subscribe to its kind
 * (an endpoint with no `events` filter takes every kind); all deliveries of one event share one
 * message id, sent as `webhook-id` on every attempt. One endpoint lookup per webhook kind and
 * batched inserts, whatever the count (a storefront batch of 100 gift_added events costs the
 * same few statements). Returns the webhooks' message ids, in the order of `events`.
 *
 * @example
 *   await writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: { campaignId, active: true } }]);
 *   const [messageId] = await writeOutbox(tx, shop.id, [{ kind: 'webhook', type: 'gift.added', data: { campaignId } }]);
 */
export async function writeOutbox(tx: Queryable, shopId: string, events: readonly OutboxEvent[], now: Date = new Date()): Promise<string[]> {
  const messageIds: string[] = [];
  const webhooks = new Map<WebhookEventType, Array<{ data: Record<string, unknown>; messageId: string }>>();
  const rows: OutboxRow[] = [];
  const onceRows: OutboxRow[] = [];
  for (const event of events) {
    if (event.kind === 'webhook') {
      const messageId = newId('msg');
      messageIds.push(messageId);
      const batch = webhooks.get(event.type) ?? [];
      batch.push({ data: event.data, messageId });
      webhooks.set(event.type, batch);
      continue;
    }
    const once = 'once' in event ? event.once : undefined;
    const row = { shopId, id: once?.id ?? newId('obx'), kind: event.kind, eventType: event.kind, payload: event.payload, nextAttemptAt: once?.at ?? now };
    (once ? onceRows : rows).push(row);
  }
  for (const [type, batch] of webhooks) rows.push(...(await webhookRows(tx, shopId, type, batch, now)));
  // Batches keep each statement well under PostgreSQL's 65,535 bind parameters.
  for (let start = 0; start < rows.length; start += 1000) await tx.insert(outbox).values(rows.slice(start, start + 1000));
  if (onceRows.length > 0) await tx.insert(outbox).values(onceRows).onConflictDoNothing({ target: [outbox.shopId, outbox.id] });
  return messageIds;
}
