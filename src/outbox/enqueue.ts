/**
 * Writing side effects into the outbox. Call these inside the transaction of the change
 * that causes them: the effect is then committed exactly when the change is, and the
 * dispatcher delivers it later, surviving any crash in between.
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

/**
 * Queues one delivery of the event to each of the shop's live endpoints that subscribe to
 * it (an endpoint with no `events` filter takes every kind). All deliveries of one event
 * share one message id, sent as `webhook-id` on every attempt. Returns the message id.
 *
 * @example
 *   await db.transaction(async (tx) => {
 *     await enqueueWebhookEvent(tx, shop.id, 'campaign.activated', { campaignId, name, enabled: true, isDraft: false, trigger: 'api' });
 *   });
 */
export async function enqueueWebhookEvent(
  tx: Queryable,
  shopId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  now: Date = new Date(),
): Promise<string> {
  const [messageId] = await enqueueWebhookEvents(tx, shopId, type, [data], now);
  return messageId ?? newId('msg');
}

/**
 * Queues many events of one kind at once: one endpoint lookup and batched inserts, whatever
 * the count (a storefront batch of 100 gift_added events costs the same few statements).
 * Returns the message ids in the order of `events`.
 *
 * @example
 *   await enqueueWebhookEvents(tx, shop.id, 'gift.added', [{ campaignId, ruleId, variantId }]);
 */
export async function enqueueWebhookEvents(
  tx: Queryable,
  shopId: string,
  type: WebhookEventType,
  events: ReadonlyArray<Record<string, unknown>>,
  now: Date = new Date(),
): Promise<string[]> {
  const messageIds = events.map(() => newId('msg'));
  if (events.length === 0) return messageIds;
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.shopId, shopId), isNull(webhookEndpoints.disabledAt)));
  const subscribed = endpoints.filter((endpoint) => endpoint.events.length === 0 || endpoint.events.includes(type));
  if (subscribed.length === 0) return messageIds;
  const timestamp = now.toISOString();
  const rows = events.flatMap((data, index) => {
    const payload: WebhookPayload = { type, timestamp, data: { ...data, shopId } };
    return subscribed.map((endpoint) => ({
      shopId,
      id: newId('obx'),
      kind: 'webhook',
      endpointId: endpoint.id,
      messageId: messageIds[index] ?? newId('msg'),
      eventType: type,
      payload,
      nextAttemptAt: now,
    }));
  });
  // Batches keep each statement well under PostgreSQL's 65,535 bind parameters.
  for (let start = 0; start < rows.length; start += 1000) {
    await tx.insert(outbox).values(rows.slice(start, start + 1000));
  }
  return messageIds;
}

/**
 * Queues a platform sync job (e.g. the automatic discount of a campaign) for the dispatcher.
 *
 * @example
 *   await enqueueJob(tx, shop.id, 'discount_sync', { campaignId, active: true });
 */
export async function enqueueJob(
  tx: Queryable,
  shopId: string,
  kind: 'discount_sync' | 'redemptions_sync',
  payload: Record<string, unknown>,
  now: Date = new Date(),
): Promise<void> {
  await tx.insert(outbox).values({ shopId, id: newId('obx'), kind, eventType: kind, payload, nextAttemptAt: now });
}

/**
 * Queues a job due at `at` under a fixed id, once: a second call with the same id is a no-op
 * (the discount sync's follow-up at a schedule boundary, which every sync before it asks for).
 *
 * @example
 *   await enqueueJobOnce(db, shop.id, 'discount_sync', { campaignId }, { id: 'obx_cfg_lx3k', at: boundary });
 */
export async function enqueueJobOnce(
  tx: Queryable,
  shopId: string,
  kind: 'discount_sync' | 'catalog_import',
  payload: Record<string, unknown>,
  options: { id: string; at: Date },
): Promise<void> {
  await tx
    .insert(outbox)
    .values({ shopId, id: options.id, kind, eventType: kind, payload, nextAttemptAt: options.at })
    .onConflictDoNothing({ target: [outbox.shopId, outbox.id] });
}

/**
 * Queues the repair of one (order, rule) whose gift the order lacks (src/repairs/job.ts); the
 * caller holds the transaction that created its `order_repairs` row.
 *
 * @example
 *   await enqueueRepairJob(tx, shop.id, { orderId: '820982911946154508', ruleId: 'rul_1' });
 */
export async function enqueueRepairJob(tx: Queryable, shopId: string, payload: { orderId: string; ruleId: string }, now: Date = new Date()): Promise<void> {
  await tx.insert(outbox).values({ shopId, id: newId('obx'), kind: 'order_repair', eventType: 'order_repair', payload, nextAttemptAt: now });
}
