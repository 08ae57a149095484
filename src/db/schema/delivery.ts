/** Side effects and their delivery: platform webhook deliveries received, webhook endpoints, the outbox and its attempts. */
import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns.ts';
import { shops } from './shops.ts';

/**
 * Platform webhook deliveries already processed, by `X-Shopify-Webhook-Id`: written in the
 * transaction of the delivery's effect, so a redelivery (or two at once) has its effect once.
 * Pruned after PLATFORM_WEBHOOK_RETENTION_DAYS (the platform retries for 48 hours).
 */
export const platformWebhookDeliveries = pgTable(
  'platform_webhook_deliveries',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull(),
    topic: text('topic').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.webhookId] }),
    index('platform_webhook_deliveries_received_idx').on(t.receivedAt),
  ],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    url: text('url').notNull(),
    /** Event kinds delivered; empty means every kind. */
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    /** Set when the receiver answered 410 Gone: nothing more is sent to it. */
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

/**
 * Side effects promised by a committed change: written in the change's own transaction and
 * claimed by dispatchers with FOR UPDATE SKIP LOCKED, so a crash loses none and two instances
 * never send the same attempt. `kind` is 'webhook' (one row per endpoint) or 'discount_sync'.
 */
export const outbox = pgTable(
  'outbox',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    /** For webhooks: the endpoint, and the message id sent as `webhook-id` on every attempt. */
    endpointId: text('endpoint_id'),
    messageId: text('message_id'),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** pending → delivered | failed | cancelled */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    // The two cross-shop reads, each on a partial index that holds only the rows it serves.
    // Dispatchers claim whatever is due, whichever shop it is for: only pending rows, so a
    // claim never walks delivered history however long it grows.
    index('outbox_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    // Retention prunes finished rows oldest first (updated_at is when they finished).
    index('outbox_finished_idx').on(t.updatedAt).where(sql`status <> 'pending'`),
    index('outbox_shop_created_idx').on(t.shopId, t.createdAt),
  ],
);

/** One row per delivery attempt: the webhook delivery log. */
export const outboxAttempts = pgTable(
  'outbox_attempts',
  {
    shopId: text('shop_id').notNull(),
    outboxId: text('outbox_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: ts('attempted_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.outboxId, t.attempt] }),
    foreignKey({ columns: [t.shopId, t.outboxId], foreignColumns: [outbox.shopId, outbox.id] }).onDelete('cascade'),
  ],
);
