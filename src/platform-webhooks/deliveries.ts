/**
 * "A delivery seen twice is processed once" (CONTRACT part two "Platform webhooks"). The
 * platform gives every delivery an `X-Shopify-Webhook-Id` and sends the same id on each retry.
 * The id is claimed by inserting it in the SAME transaction as the delivery's effect:
 * - a retry after a commit finds the row and does nothing;
 * - two deliveries of one id at once: the second's insert waits on the first's uncommitted
 *   row (primary key), then finds it committed and does nothing — or, if the first rolled
 *   back, inserts and does the work itself;
 * - an effect that fails (a 400, a crash) rolls its claim back, so a retry is processed.
 * Rows are pruned after {@link DELIVERY_RETENTION_DAYS}: the platform stops retrying after 48 hours.
 */
import { asc, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { platformWebhookDeliveries } from '../db/schema.ts';
import { createPeriodicWorker } from '../periodic-worker.ts';
import type { Worker } from '../periodic-worker.ts';

/** Long past the platform's 48 hours of retries, so a late retry still finds its id. */
export const DELIVERY_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const PRUNE_BATCH = 1000;

/**
 * Records the delivery inside the caller's transaction; false when the shop already has it.
 *
 * @example
 *   if (!(await claimDelivery(tx, shop.id, webhookId, topic))) return { ok: true, duplicate: true };
 */
export async function claimDelivery(tx: Queryable, shopId: string, webhookId: string, topic: string): Promise<boolean> {
  const rows = await tx
    .insert(platformWebhookDeliveries)
    .values({ shopId, webhookId, topic })
    .onConflictDoNothing()
    .returning({ webhookId: platformWebhookDeliveries.webhookId });
  return rows.length > 0;
}

/**
 * Deletes deliveries received before `before`, in batches; returns how many went.
 *
 * @example
 *   await pruneDeliveries(ctx.db, new Date(Date.now() - 7 * 86_400_000));
 */
export async function pruneDeliveries(db: Queryable, before: Date, shouldStop: () => boolean = () => false): Promise<number> {
  let deleted = 0;
  while (!shouldStop()) {
    const batch = db
      .select({ shopId: platformWebhookDeliveries.shopId, webhookId: platformWebhookDeliveries.webhookId })
      .from(platformWebhookDeliveries)
      .where(lt(platformWebhookDeliveries.receivedAt, before))
      .orderBy(asc(platformWebhookDeliveries.receivedAt))
      .limit(PRUNE_BATCH)
      .for('update', { skipLocked: true });
    const gone = await db
      .delete(platformWebhookDeliveries)
      .where(sql`(${platformWebhookDeliveries.shopId}, ${platformWebhookDeliveries.webhookId}) in (${batch})`)
      .returning({ webhookId: platformWebhookDeliveries.webhookId });
    deleted += gone.length;
    if (gone.length < PRUNE_BATCH) break;
  }
  return deleted;
}

/**
 * Prunes old delivery ids at start and hourly.
 *
 * @example
 *   createWorkers(ctx) // includes createDeliveryRetentionWorker(ctx)
 */
export function createDeliveryRetentionWorker(ctx: AppContext): Worker {
  return createPeriodicWorker({
    name: 'platform-webhook-retention',
    intervalMs: HOUR_MS,
    logger: ctx.logger,
    async pass(shouldStop) {
      const before = new Date(ctx.now().getTime() - DELIVERY_RETENTION_DAYS * DAY_MS);
      const deleted = await pruneDeliveries(ctx.db, before, shouldStop);
      if (deleted > 0) ctx.logger.info({ deleted, before: before.toISOString() }, 'pruned platform webhook delivery ids');
    },
  });
}
