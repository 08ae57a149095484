/**
 * The outbox dispatcher: a background worker that claims due rows (see claim.ts), performs
 * each attempt — a signed webhook POST or a discount sync through the platform port — and
 * records the outcome. Any number of instances may run against one database.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { DiscountPort } from '../platform/discount-port.ts';
import { deliverWebhook, WEBHOOK_TIMEOUT_MS } from '../webhooks/deliver.ts';
import type { FetchLike } from '../webhooks/deliver.ts';
import type { Worker } from '../workers.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import { claimDueWork } from './claim.ts';
import type { ClaimedWork } from './claim.ts';
import { runDiscountSync } from './discount-sync-job.ts';
import { recordOutcome } from './record-outcome.ts';
import type { RecordedState } from './record-outcome.ts';

export type DispatcherOptions = {
  db: Database;
  logger: Logger;
  discountPort: DiscountPort;
  /** Idle wait between polls (config.outboxPollMs). */
  pollMs: number;
  batchSize?: number;
  /** How long a claimed row stays invisible to other dispatchers; must exceed the timeout. */
  leaseMs?: number;
  timeoutMs?: number;
  /** Injected for tests; the global fetch and clock otherwise. */
  fetch?: FetchLike;
  now?: () => Date;
  random?: () => number;
};

export type DispatchSummary = { claimed: number } & Record<RecordedState, number>;

export type OutboxDispatcher = Worker & {
  /** Claims one batch, performs it, records every outcome; resolves when the batch is done. */
  runOnce(): Promise<DispatchSummary>;
};

export const DEFAULT_BATCH_SIZE = 20;
/** Four times the webhook timeout: a claimed attempt is finished long before its lease ends. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * Builds a dispatcher; `start()` polls until `stop()`, which lets the batch in hand finish.
 *
 * @example
 *   const dispatcher = createOutboxDispatcher({ db: ctx.db, logger: ctx.logger, discountPort: ctx.discountPort, pollMs: 1000 });
 *   dispatcher.start(); // … await dispatcher.stop();
 */
export function createOutboxDispatcher(options: DispatcherOptions): OutboxDispatcher {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (leaseMs <= timeoutMs) throw new Error('The outbox lease must be longer than the webhook timeout');
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const log = options.logger.child({ worker: 'outbox' });

  async function perform(work: ClaimedWork): Promise<AttemptOutcome> {
    if (work.kind === 'discount_sync') return runDiscountSync(options.db, options.discountPort, work.row.shopId, work.row.payload);
    return deliverWebhook(
      fetchFn,
      { url: work.endpoint.url, secret: work.endpoint.secret, messageId: work.row.messageId ?? work.row.id, payload: work.row.payload },
      { attemptAt: now(), timeoutMs },
    );
  }

  async function runOne(work: ClaimedWork): Promise<RecordedState> {
    const outcome = await perform(work);
    const state = await recordOutcome(options.db, work, outcome, { now: now(), random });
    const fields = { shopId: work.row.shopId, outboxId: work.row.id, kind: work.row.kind, attempt: work.attempt, state };
    if (outcome.ok) log.debug(fields, 'outbox attempt succeeded');
    else log.warn({ ...fields, statusCode: outcome.statusCode, error: outcome.error }, 'outbox attempt failed');
    return state;
  }

  async function runOnce(): Promise<DispatchSummary> {
    const claimed = await claimDueWork(options.db, { now: now(), limit: batchSize, leaseMs });
    const summary: DispatchSummary = { claimed: claimed.length, delivered: 0, retrying: 0, failed: 0 };
    // One batch at a time, its attempts in parallel: a slow receiver costs at most the timeout.
    // allSettled: stop() waits for every attempt in hand, even after one fails to record.
    for (const result of await Promise.allSettled(claimed.map(runOne))) {
      if (result.status === 'fulfilled') summary[result.value] += 1;
      // The row keeps its lease and is retried once the lease runs out.
      else log.error({ err: result.reason }, 'recording an outbox outcome failed');
    }
    return summary;
  }

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function poll(): Promise<void> {
    while (running) {
      try {
        const summary = await runOnce();
        // A full batch suggests more is due: go again at once.
        if (summary.claimed === batchSize) continue;
      } catch (error) {
        log.error({ err: error }, 'outbox dispatch failed; retrying after the poll interval');
      }
      if (running) await idle();
    }
  }

  return {
    name: 'outbox-dispatcher',
    runOnce,
    start() {
      if (running) return;
      running = true;
      loop = poll();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
