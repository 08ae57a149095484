/**
 * Retention of the outbox: a finished row (delivered, failed or cancelled) and its attempt
 * log are deleted OUTBOX_RETENTION_DAYS after it finished, so the table and the log hold
 * pending work plus a bounded window of history. Pending rows are never pruned, however old.
 *
 * Every instance runs the worker. Each batch is one short statement that locks its rows with
 * SKIP LOCKED, so concurrent pruners split the work instead of waiting on each other, and a
 * row deleted twice is simply gone once. The attempt log goes with its row (ON DELETE CASCADE
 * on the log's (shop_id, outbox_id) key, served by the log's primary key).
 */
import { and, asc, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Queryable } from '../db/database.ts';
import { outbox } from '../db/schema.ts';
import { createPeriodicWorker } from '../periodic-worker.ts';
import type { Worker } from '../periodic-worker.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const DEFAULT_PRUNE_BATCH = 1000;

/**
 * The next batch of finished rows older than `before`, oldest first, locked. The literal
 * `status <> 'pending'` is the partial index's own predicate (outbox_finished_idx), so the
 * planner can use that index whatever the plan's parameters.
 *
 * @example
 *   await db.execute(sql`EXPLAIN ${finishedBefore(db, cutoff, 1000).getSQL()}`);
 */
export function finishedBefore(db: Queryable, before: Date, limit: number) {
  return db
    .select({ shopId: outbox.shopId, id: outbox.id })
    .from(outbox)
    .where(and(sql`${outbox.status} <> 'pending'`, lt(outbox.updatedAt, before)))
    .orderBy(asc(outbox.updatedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Deletes the outbox rows that finished before `before`, with their attempt log, in batches
 * of `batchSize`; returns how many rows went.
 *
 * @example
 *   const deleted = await pruneOutbox(ctx.db, new Date(Date.now() - 7 * 86_400_000));
 */
export async function pruneOutbox(
  db: Queryable,
  before: Date,
  options: { batchSize?: number; shouldStop?: () => boolean } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? DEFAULT_PRUNE_BATCH;
  const shouldStop = options.shouldStop ?? (() => false);
  let deleted = 0;
  while (!shouldStop()) {
    const gone = await db
      .delete(outbox)
      .where(sql`(${outbox.shopId}, ${outbox.id}) in (${finishedBefore(db, before, batchSize)})`)
      .returning({ id: outbox.id });
    deleted += gone.length;
    // A short batch: nothing old is left, or the rest is locked by another pruner right now.
    if (gone.length < batchSize) break;
  }
  return deleted;
}

/** What the worker needs of the app's context (context.ts hands it in). */
export type RetentionDeps = { db: Queryable; logger: Logger; now: () => Date; config: { outboxRetentionDays: number } };

/**
 * The worker that prunes the outbox at start and then every `intervalMs` (hourly), keeping
 * `config.outboxRetentionDays` of finished history.
 *
 * @example
 *   createWorkers(ctx) // includes createOutboxRetentionWorker(ctx)
 */
export function createOutboxRetentionWorker(ctx: RetentionDeps, options: { intervalMs?: number } = {}): Worker {
  return createPeriodicWorker({
    name: 'outbox-retention',
    intervalMs: options.intervalMs ?? HOUR_MS,
    logger: ctx.logger,
    async pass(shouldStop) {
      const before = new Date(ctx.now().getTime() - ctx.config.outboxRetentionDays * DAY_MS);
      const deleted = await pruneOutbox(ctx.db, before, { shouldStop });
      if (deleted > 0) ctx.logger.info({ deleted, before: before.toISOString() }, 'pruned finished outbox rows');
    },
  });
}
