/**
 * Writing what an attempt came to: the attempt log entry, then the row's next state —
 * delivered, retried later on the schedule, or failed; 410 Gone also disables the endpoint.
 * Every row update is guarded by the attempt number, so a dispatcher that outlived its lease
 * cannot overwrite the state of a newer attempt.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { outbox, outboxAttempts, webhookEndpoints } from '../db/schema.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import { cancelPendingDeliveries } from './cancel.ts';
import type { ClaimedWork } from './claim.ts';
import { retryDelayMs } from './retry-schedule.ts';

export type RecordedState = 'delivered' | 'retrying' | 'failed';

/**
 * Records `outcome` for the claimed attempt at `now`; returns the row's new state.
 *
 * @example
 *   const state = await recordOutcome(db, work, outcome, { now: new Date(), random: Math.random });
 */
export async function recordOutcome(
  db: Database,
  work: ClaimedWork,
  outcome: AttemptOutcome,
  options: { now: Date; random: () => number },
): Promise<RecordedState> {
  const { row, attempt } = work;
  const { now } = options;
  const thisAttempt = and(eq(outbox.shopId, row.shopId), eq(outbox.id, row.id), eq(outbox.status, 'pending'), eq(outbox.attempts, attempt));
  const error = outcome.ok ? null : outcome.error;
  return db.transaction(async (tx) => {
    await tx
      .update(outboxAttempts)
      .set({ statusCode: outcome.statusCode, error, durationMs: outcome.durationMs })
      .where(and(eq(outboxAttempts.shopId, row.shopId), eq(outboxAttempts.outboxId, row.id), eq(outboxAttempts.attempt, attempt)));
    const last = { lastStatusCode: outcome.statusCode, lastError: error, updatedAt: now };

    if (outcome.ok) {
      await tx.update(outbox).set({ ...last, status: 'delivered' }).where(thisAttempt);
      return 'delivered';
    }
    if (outcome.gone && work.kind === 'webhook' && row.endpointId !== null) {
      await tx.update(outbox).set({ ...last, status: 'failed' }).where(thisAttempt);
      await tx
        .update(webhookEndpoints)
        .set({ disabledAt: now })
        .where(and(eq(webhookEndpoints.shopId, row.shopId), eq(webhookEndpoints.id, row.endpointId), isNull(webhookEndpoints.disabledAt)));
      await cancelPendingDeliveries(tx, row.shopId, row.endpointId, 'Endpoint disabled: the receiver answered 410 Gone');
      return 'failed';
    }
    const delay = outcome.final ? undefined : retryDelayMs(attempt, options.random, outcome.retryAfterMs);
    if (delay === undefined) {
      await tx.update(outbox).set({ ...last, status: 'failed' }).where(thisAttempt);
      return 'failed';
    }
    await tx.update(outbox).set({ ...last, nextAttemptAt: new Date(now.getTime() + delay) }).where(thisAttempt);
    return 'retrying';
  });
}
