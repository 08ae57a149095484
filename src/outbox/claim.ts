/**
 * Claiming due outbox rows. Several dispatchers (instances) share the table: each claims a
 * batch in one short transaction with FOR UPDATE SKIP LOCKED, and instead of holding the row
 * lock through the HTTP call it moves `next_attempt_at` forward by a lease and counts the
 * attempt. Other dispatchers then see the row as not due; if this one dies mid-delivery the
 * lease runs out and the row is claimed again, sending the same `webhook-id`.
 */
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
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
    const due = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, now)))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
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
      await tx
        .update(outboxAttempts)
        .set({ error: ABANDONED })
        .where(
          and(
            inArray(outboxAttempts.outboxId, claimed.map((w) => w.row.id)),
            eq(outboxAttempts.error, IN_FLIGHT),
          ),
        );
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

async function endpointsOf(tx: Queryable, rows: readonly OutboxRow[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.kind === 'webhook' && row.endpointId !== null ? [row.endpointId] : [])))];
  const found = new Map<string, { url: string; secret: string; disabledAt: Date | null }>();
  if (ids.length === 0) return found;
  const endpoints = await tx
    .select({
      shopId: webhookEndpoints.shopId,
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      disabledAt: webhookEndpoints.disabledAt,
    })
    .from(webhookEndpoints)
    .where(inArray(webhookEndpoints.id, ids));
  // Keyed by shop too: an endpoint only serves rows of its own shop.
  for (const e of endpoints) found.set(`${e.shopId}/${e.id}`, { url: e.url, secret: e.secret, disabledAt: e.disabledAt });
  return found;
}
