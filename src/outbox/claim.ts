/**
 * Claiming due outbox rows. Several dispatchers (instances) share the table: each claims a
 * batch in one short transaction with FOR UPDATE SKIP LOCKED, and instead of holding the row
 * lock through the HTTP call it moves `next_attempt_at` forward by a lease and counts the
 * attempt. Other dispatchers then see the row as not due; if this one dies mid-delivery the
 * lease runs out and the row is claimed again, sending the same `webhook-id`.
 */
import { and, asc, eq, inArray, isNull, lte, not, notInArray, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database, Queryable } from '../db/database.ts';
import { outbox, outboxAttempts, webhookEndpoints } from '../db/schema.ts';

export type OutboxRow = typeof outbox.$inferSelect;

export type ClaimedWork =
  | { kind: 'webhook'; row: OutboxRow; attempt: number; endpoint: { url: string; secret: string } }
  | { kind: PlatformJobKind; row: OutboxRow; attempt: number };

/**
 * The platform jobs, which share the `discount_sync` lane: the discount sync, the
 * per-customer redemption counts written to a customer metafield (per-customer limits), and the
 * catalog import of an install (src/install/catalog-import.ts), and the repair of an order's
 * missing gift (src/repairs/job.ts).
 */
export const PLATFORM_JOB_KINDS = ['discount_sync', 'redemptions_sync', 'catalog_import', 'order_repair'] as const;
export type PlatformJobKind = (typeof PLATFORM_JOB_KINDS)[number];
const isPlatformJob = (kind: string): kind is PlatformJobKind => (PLATFORM_JOB_KINDS as readonly string[]).includes(kind);

/** The attempt log's marker for an attempt whose outcome is not recorded yet. */
export const IN_FLIGHT = 'in flight';
const ABANDONED = 'No outcome recorded: the dispatcher stopped during the attempt; retried after its lease expired';

/**
 * Which rows a claim may take. A lane is a kind of work with its own slots, so a backlog of one
 * kind never holds back the other: `webhook` is every kind but discount syncs (unknown kinds
 * are cancelled there), `discount_sync` the platform jobs (PLATFORM_JOB_KINDS); no lane means every kind.
 */
export type ClaimLane = 'webhook' | 'discount_sync';

/** Per-endpoint bound of a claim: attempts already in flight here, keyed by `endpointKey`. */
export type EndpointBound = { perEndpoint: number; inFlight: ReadonlyMap<string, number> };

/** The key of an endpoint in `EndpointBound.inFlight`: endpoint ids are only unique within a shop. */
export const endpointKey = (shopId: string, endpointId: string) => `${shopId}/${endpointId}`;

const rowKey = (row: { shopId: string; id: string }) => and(eq(outbox.shopId, row.shopId), eq(outbox.id, row.id));

/**
 * Claims up to `limit` due rows of `lane` for `leaseMs` and writes an in-flight entry for each
 * attempt in the log. Rows whose endpoint is gone or disabled are cancelled, not claimed; with a
 * `bound`, rows of an endpoint at its bound are left due for a later claim, their attempt not counted.
 * `more` says the read was full, so more may be due.
 *
 * @example
 *   const { work } = await claimDueWork(db, { now: new Date(), limit: 20, leaseMs: 60_000, lane: 'webhook', bound: { perEndpoint: 2, inFlight: new Map() } });
 */
export async function claimDueWork(
  db: Database,
  options: { now: Date; limit: number; leaseMs: number; lane?: ClaimLane; bound?: EndpointBound },
): Promise<{ work: ClaimedWork[]; more: boolean }> {
  const { now, limit, leaseMs, bound } = options;
  return db.transaction(async (tx) => {
    const due = await dueRows(tx, now, limit, laneFilter(options.lane, bound));
    // A full read may have left due rows behind (or skipped some over their endpoint's bound).
    const more = due.length === limit;
    if (due.length === 0) return { work: [], more };

    const endpoints = await endpointsOf(tx, due);
    const claimed: ClaimedWork[] = [];
    const dropped: Array<{ row: OutboxRow; reason: string }> = [];
    // Attempts per endpoint once this claim is taken: in flight before plus claimed here.
    const load = new Map(bound?.inFlight ?? []);
    for (const row of due) {
      const attempt = row.attempts + 1;
      if (isPlatformJob(row.kind)) {
        claimed.push({ kind: row.kind, row, attempt });
      } else if (row.kind === 'webhook') {
        const key = row.endpointId === null ? undefined : endpointKey(row.shopId, row.endpointId);
        const endpoint = key === undefined ? undefined : endpoints.get(key);
        if (!endpoint || key === undefined) dropped.push({ row, reason: 'Endpoint deleted' });
        else if (endpoint.disabledAt !== null) dropped.push({ row, reason: 'Endpoint disabled' });
        // Over the endpoint's bound: left untouched, so the lock goes with this transaction and
        // the row stays due, its attempt not counted.
        else if (bound && (load.get(key) ?? 0) >= bound.perEndpoint) continue;
        else {
          load.set(key, (load.get(key) ?? 0) + 1);
          claimed.push({ kind: 'webhook', row, attempt, endpoint });
        }
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
    return { work: claimed, more };
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
export function dueRows(tx: Queryable, now: Date, limit: number, filter?: SQL) {
  return tx
    .select()
    .from(outbox)
    .where(and(sql`${outbox.status} = 'pending'`, lte(outbox.nextAttemptAt, now), filter))
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * The claim's filter for a lane: its kinds, and in the webhook lane no rows of an endpoint
 * already at its bound — so a dead receiver's backlog is not even read, let alone claimed,
 * while its slots are taken. (Rows without an endpoint are kept: the claim cancels them.)
 *
 * @example
 *   dueRows(tx, now, 20, laneFilter('webhook', { perEndpoint: 2, inFlight: new Map([['shp_1/whe_1', 2]]) }));
 */
export function laneFilter(lane: ClaimLane | undefined, bound: EndpointBound | undefined): SQL | undefined {
  if (lane === 'discount_sync') return inArray(outbox.kind, [...PLATFORM_JOB_KINDS]);
  const full = bound ? [...bound.inFlight].filter(([, count]) => count >= bound.perEndpoint).map(([key]) => key) : [];
  const saturated = full.map((key) => {
    const slash = key.indexOf('/');
    return and(eq(outbox.shopId, key.slice(0, slash)), eq(outbox.endpointId, key.slice(slash + 1)));
  });
  const open = saturated.length === 0 ? undefined : or(isNull(outbox.endpointId), not(or(...saturated) ?? sql`false`));
  if (lane === 'webhook') return and(notInArray(outbox.kind, [...PLATFORM_JOB_KINDS]), open);
  return open;
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
    if (row.kind === 'webhook' && row.endpointId !== null) keys.set(endpointKey(row.shopId, row.endpointId), { shopId: row.shopId, id: row.endpointId });
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
  for (const e of endpoints) found.set(endpointKey(e.shopId, e.id), { url: e.url, secret: e.secret, disabledAt: e.disabledAt });
  return found;
}
