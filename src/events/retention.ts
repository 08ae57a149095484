/**
 * Retention of raw storefront events: older than EVENT_RETENTION_DAYS they are deleted by a
 * background worker, in small batches per shop so no delete holds many row locks or runs
 * long. Rollups (daily_totals, daily_campaign_stats, daily_rule_stats) are never pruned.
 */
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { shops, storefrontEvents } from '../db/schema.ts';
import { createPeriodicWorker } from '../periodic-worker.ts';
import type { Worker } from '../periodic-worker.ts';
import { bytewise } from '../db/collation.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type PruneOptions = {
  /** Rows per DELETE statement. */
  batchSize?: number;
  /** Checked between batches: a stopping worker finishes its statement and returns. */
  shouldStop?: () => boolean;
};

/**
 * Deletes every storefront event received before `before`; returns how many went.
 * Each batch walks one shop's (shop_id, received_at) index, never the whole table.
 *
 * @example
 *   const deleted = await pruneEvents(ctx.db, new Date(Date.now() - 90 * 86_400_000));
 */
export async function pruneEvents(db: Database, before: Date, options: PruneOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 5000;
  const shouldStop = options.shouldStop ?? (() => false);
  const shopRows = await db.select({ id: shops.id }).from(shops).orderBy(asc(bytewise(shops.id)));
  let deleted = 0;
  for (const { id: shopId } of shopRows) {
    for (;;) {
      if (shouldStop()) return deleted;
      const old = db
        .select({ id: storefrontEvents.id })
        .from(storefrontEvents)
        .where(and(eq(storefrontEvents.shopId, shopId), lt(storefrontEvents.receivedAt, before)))
        .limit(batchSize);
      const gone = await db
        .delete(storefrontEvents)
        .where(and(eq(storefrontEvents.shopId, shopId), inArray(storefrontEvents.id, old)))
        .returning({ id: storefrontEvents.id });
      deleted += gone.length;
      if (gone.length < batchSize) break;
    }
  }
  return deleted;
}

/**
 * The worker that prunes events once at start and then every `intervalMs` (hourly).
 *
 * @example
 *   createWorkers(ctx) // includes createEventRetentionWorker(ctx)
 */
export function createEventRetentionWorker(ctx: AppContext, options: { intervalMs?: number } = {}): Worker {
  return createPeriodicWorker({
    name: 'event-retention',
    intervalMs: options.intervalMs ?? HOUR_MS,
    logger: ctx.logger,
    async pass(shouldStop) {
      const before = new Date(Date.now() - ctx.config.eventRetentionDays * DAY_MS);
      const deleted = await pruneEvents(ctx.db, before, { shouldStop });
      if (deleted > 0) ctx.logger.info({ deleted, before: before.toISOString() }, 'pruned storefront events');
    },
  });
}
