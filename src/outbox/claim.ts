/**
 * Claiming due outbox rows. Several dispatchers (instances) share the table: each claims a
 * batch in one short transaction with FOR UPDATE SKIP LOCKED, and instead of holding the row
 * lock through the HTTP call it moves `next_attempt_at` forward by a lease and counts the
 * attempt. Other dispatchers then see the row as not due; if this one dies mid-delivery the
 * lease runs out and the row is claimed again, sending the same `webhook-id`.
 */
import { and, asc, eq, lte, or, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/database.ts';
import { outbox, outboxAttempts, webhookEndpoints } from '../db/schema.ts';

export type OutboxRow = typeof outbox.$inferSelect;

export type ClaimedWork =
  | { kind: 'webhook'; row: OutboxRow; attempt: number; endpoint: { url: string; secret: string } }
  | { kind: 'discount_sync'; row: OutboxRow; attempt: number };

/** The attempt log's marker for an attempt whose outcome is not recorded yet. */
export const IN_FLIGHT = 'in flight';
const ABANDONED = 'No outcome recorded: the dispatcher stopped during the attempt; retried after its lease expired';

const rowKey = (row: { shopId: string; id: string }) => and(eq(outbox.shopId, row.shopId), eq(outbox.id, row.id));

/**
 * Claims up to `limit` due rows for `leaseMs` and writes an in-flight entry for each
 * attempt in the log. Rows whose endpoint is gone or disabled are cancelled, not claimed.
 *
 * @example
 *   const work = await claimDueWork(db, { now: new Date(), limit: 20, leaseMs: 60_000 });
 */
export async function claimDueWork(
  db: Database,
  options: { now: Date; limit: number; leaseMs: number },
): Promise<ClaimedWork[]> {
  const { now, limit, leaseMs } = options;
  return db.transaction(async (tx) => {
    const due = await dueRows(tx, now, limit);
    if (due.length === 0) return [];

    const endpoints = await endpointsOf(tx, due);
    const claimed: ClaimedWork[] = [];
    const dropped: Array<{ row: OutboxRow; reason: string }> = [];
    for (const row of due) {
      const attempt = row.attempts + 1;
      if (row.kind === 'discount_sync') {
        claimed.push({ kind: 'discount_sync', row, attempt });
      } else if (row.kind === 'webhook') {
        const endpoint = row.endpointId === null ? undefined : endpoints.get(`${row.shopId}/${row.endpointId}`);
        if (!endpoint) dropped.push({ row, reason: 'Endpoint deleted' });
        else if (endpoint.disabledAt !== null) dropped.push({ row, reason: 'Endpoint disabled' });
        else claimed.push({ kind: 'webhook', row, attempt, endpoint });
      } else {
        dropped.push({ row, reason: `Unknown outbox kind ${row.kind}` });
      }
    }

    for (const { row, reason } of dropped) {
      await tx.update(outbox).set({ status: 'cancelled', lastError: reason, updatedAt: now }).where(rowKey(row));
    }
    if (claimed.length > 0) {
      const leaseEnd = new Date(now.getTime() + leaseMs);
      for (const work of claimed) {
        await tx.update(outbox).set({ attempts: work.attempt, nextAttemptAt: leaseEnd, updatedAt: now }).where(rowKey(work.row));
      }
      // An in-flight entry left by a dispatcher that died: say so, then log this attempt.
      const previous = claimed.map((w) => w.row).filter((row) => row.attempts > 0);
      if (previous.length > 0) await markAbandoned(tx, previous);
      await tx.insert(outboxAttempts).values(
        claimed.map((w) => ({
          shopId: w.row.shopId,
          outboxId: w.row.id,
          attempt: w.attempt,
          statusCode: null,
          error: IN_FLIGHT,
          durationMs: 0,
          attemptedAt: now,
        })),
      );
    }
    return claimed;
  });
}

/**
 * Due rows, soonest first, locked for this claim. The literal `status = 'pending'` is the
 * predicate of the partial index outbox_due_idx, which holds pending rows only: the claim
 * reads that index, never delivered history (test/outbox/query-plans.test.ts shows the plan).
 *
 * @example
 *   await db.execute(sql`EXPLAIN ${dueRows(db, new Date(), 20).getSQL()}`);
 */
export function dueRows(tx: Queryable, now: Date, limit: number) {
  return tx
    .select()
    .from(outbox)
    .where(and(sql`${outbox.status} = 'pending'`, lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Marks the previous attempt of each row as abandoned if it is still in flight. Only a row's
 * latest attempt can be in flight (each claim settles the one before), so each entry is named
 * by its full primary key and the log is read through that index, never scanned.
 *
 * @example
 *   await markAbandoned(tx, [{ shopId: 'shp_1', id: 'obx_1', attempts: 2 }]);
 */
export function markAbandoned(tx: Queryable, rows: ReadonlyArray<{ shopId: string; id: string; attempts: number }>) {
  const keys = rows.map((row) =>
    and(eq(outboxAttempts.shopId, row.shopId), eq(outboxAttempts.outboxId, row.id), eq(outboxAttempts.attempt, row.attempts)),
  );
  return tx
    .update(outboxAttempts)
    .set({ error: ABANDONED })
    .where(and(or(...keys), eq(outboxAttempts.error, IN_FLIGHT)));
}

async function endpointsOf(tx: Queryable, rows: readonly OutboxRow[]) {
  const keys = new Map<string, { shopId: string; id: string }>();
  for (const row of rows) {
    if (row.kind === 'webhook' && row.endpointId !== null) keys.set(`${row.shopId}/${row.endpointId}`, { shopId: row.shopId, id: row.endpointId });
  }
  const found = new Map<string, { url: string; secret: string; disabledAt: Date | null }>();
  if (keys.size === 0) return found;
  const endpoints = await tx
    .select({
      shopId: webhookEndpoints.shopId,
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      disabledAt: webhookEndpoints.disabledAt,
    })
    .from(webhookEndpoints)
    // By primary key (shop first), like every other read of the table.
    .where(or(...[...keys.values()].map((key) => and(eq(webhookEndpoints.shopId, key.shopId), eq(webhookEndpoints.id, key.id)))));
  // Keyed by shop too: an endpoint only serves rows of its own shop.
  for (const e of endpoints) found.set(`${e.shopId}/${e.id}`, { url: e.url, secret: e.secret, disabledAt: e.disabledAt });
  return found;
}
