/**
 * The outbox dispatcher: a background worker that claims due rows (see claim.ts), performs
 * each attempt — a signed webhook POST by the sender, or a platform job (a discount sync, a
 * customer's redemption counts, a catalog import page, an order repair) by its handler, both
 * given by the wiring root (webhooks/sender.ts, platform-jobs.ts) — and records the outcome. Any number of instances may run
 * against one database.
 *
 * Attempts run continuously, not in batches: a slot freed by a fast receiver is refilled at
 * once, while a slow or dead receiver only ever holds its own endpoint's slots. Webhooks and
 * discount syncs are separate lanes with their own slots, so neither backlog starves the other.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Worker } from '../periodic-worker.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import { claimDueWork, endpointKey } from './claim.ts';
import type { ClaimedWork, ClaimLane, PlatformJobKind } from './claim.ts';
import { recordOutcome } from './record-outcome.ts';
import type { RecordedState } from './record-outcome.ts';

/** One attempt of a platform job: its shop, its payload, the attempt's number (1 first). */
export type PlatformJob = (shopId: string, payload: Record<string, unknown>, attempt: number) => Promise<AttemptOutcome>;

/** A handler for every platform job kind, which the features own (platform-jobs.ts builds the table). */
export type PlatformJobs = Readonly<Record<PlatformJobKind, PlatformJob>>;

/** A webhook attempt: where to, signed with which secret, under which message id, what. */
export type WebhookAttempt = { url: string; secret: string; messageId: string; payload: unknown };

/** Sends webhook attempts, each within `timeoutMs` (webhooks/sender.ts builds it). */
export type WebhookSender = { timeoutMs: number; send(attempt: WebhookAttempt, attemptAt: Date): Promise<AttemptOutcome> };

export type DispatcherOptions = {
  db: Database;
  logger: Logger;
  jobs: PlatformJobs;
  webhooks: WebhookSender;
  /** Idle wait between polls (config.outboxPollMs). */
  pollMs: number;
  /** Rows one runOnce() claims. */
  batchSize?: number;
  /** Webhook attempts in flight at once in this instance (config.outboxConcurrency). */
  concurrency?: number;
  /** Webhook attempts in flight at once per endpoint in this instance (config.outboxEndpointConcurrency). */
  perEndpoint?: number;
  /** Discount syncs in flight at once in this instance (config.outboxSyncConcurrency). */
  syncConcurrency?: number;
  /** How long a claimed row stays invisible to other dispatchers; must exceed the sender's timeout. */
  leaseMs?: number;
  now?: () => Date;
  random?: () => number;
};

export type DispatchSummary = { claimed: number } & Record<RecordedState, number>;

export type OutboxDispatcher = Worker & {
  /** Claims one batch (within the per-endpoint bound), performs it, records every outcome; resolves when the batch is done. */
  runOnce(): Promise<DispatchSummary>;
};

export const DEFAULT_BATCH_SIZE = 20;
export const DEFAULT_CONCURRENCY = 20;
export const DEFAULT_PER_ENDPOINT = 2;
export const DEFAULT_SYNC_CONCURRENCY = 4;
/** Four times the default webhook timeout (webhooks/deliver.ts): a claimed attempt is finished long before its lease ends. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * Builds a dispatcher; `start()` keeps its slots filled until `stop()`, which lets the attempts in hand finish.
 *
 * @example
 *   const dispatcher = createOutboxDispatcher({ db: ctx.db, logger: ctx.logger, jobs: createPlatformJobs(ctx), pollMs: 1000 });
 *   dispatcher.start(); // … await dispatcher.stop();
 */
export function createOutboxDispatcher(options: DispatcherOptions): OutboxDispatcher {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const perEndpoint = options.perEndpoint ?? DEFAULT_PER_ENDPOINT;
  // Slots per lane; `inFlight` never exceeds `bound` while start() runs (runOnce claims by batch).
  const lanes: Record<ClaimLane, { bound: number; inFlight: number }> = {
    webhook: { bound: options.concurrency ?? DEFAULT_CONCURRENCY, inFlight: 0 },
    discount_sync: { bound: options.syncConcurrency ?? DEFAULT_SYNC_CONCURRENCY, inFlight: 0 },
  };
  for (const [lane, { bound }] of Object.entries(lanes)) {
    if (!Number.isInteger(bound) || bound < 1) throw new Error(`The ${lane} lane needs at least one slot`);
  }
  if (!Number.isInteger(perEndpoint) || perEndpoint < 1) throw new Error('Each endpoint needs at least one slot');
  /** Webhook attempts in flight per endpoint (endpointKey); an endpoint is absent at zero. */
  const endpointLoad = new Map<string, number>();
  const inHand = new Set<Promise<RecordedState | undefined>>();
  const timeoutMs = options.webhooks.timeoutMs;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (leaseMs <= timeoutMs) throw new Error('The outbox lease must be longer than the webhook timeout');
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const log = options.logger.child({ worker: 'outbox' });

  async function perform(work: ClaimedWork): Promise<AttemptOutcome> {
    if (work.kind !== 'webhook') return options.jobs[work.kind](work.row.shopId, work.row.payload, work.attempt);
    const { url, secret } = work.endpoint;
    return options.webhooks.send({ url, secret, messageId: work.row.messageId ?? work.row.id, payload: work.row.payload }, now());
  }

  async function runOne(work: ClaimedWork): Promise<RecordedState> {
    const outcome = await perform(work);
    const state = await recordOutcome(options.db, work, outcome, { now: now(), random });
    const fields = { shopId: work.row.shopId, outboxId: work.row.id, kind: work.row.kind, attempt: work.attempt, state };
    if (outcome.ok) log.debug(fields, 'outbox attempt succeeded');
    else if (outcome.refused) log.warn({ ...fields, error: outcome.error }, 'webhook destination refused');
    else log.warn({ ...fields, statusCode: outcome.statusCode, error: outcome.error }, 'outbox attempt failed');
    return state;
  }

  const laneOf = (work: ClaimedWork): ClaimLane => (work.kind === 'webhook' ? 'webhook' : 'discount_sync');
  const keyOf = (work: ClaimedWork) => (work.kind === 'webhook' && work.row.endpointId !== null ? endpointKey(work.row.shopId, work.row.endpointId) : undefined);

  /**
   * Runs one claimed attempt in its lane's and endpoint's slots, freeing them when it is
   * recorded. Never rejects: undefined means the outcome could not be recorded, and the row
   * keeps its lease and is retried once the lease runs out.
   */
  function launch(work: ClaimedWork): Promise<RecordedState | undefined> {
    const lane = lanes[laneOf(work)];
    const key = keyOf(work);
    lane.inFlight += 1;
    if (key !== undefined) endpointLoad.set(key, (endpointLoad.get(key) ?? 0) + 1);
    const attempt = runOne(work)
      .catch((error: unknown) => {
        log.error({ err: error, shopId: work.row.shopId, outboxId: work.row.id }, 'recording an outbox outcome failed');
        return undefined;
      })
      .finally(() => {
        lane.inFlight -= 1;
        if (key !== undefined) {
          const left = (endpointLoad.get(key) ?? 1) - 1;
          if (left > 0) endpointLoad.set(key, left);
          else endpointLoad.delete(key);
        }
        inHand.delete(attempt);
        nudge();
      });
    inHand.add(attempt);
    return attempt;
  }

  async function runOnce(): Promise<DispatchSummary> {
    const { work } = await claimDueWork(options.db, { now: now(), limit: batchSize, leaseMs, bound: { perEndpoint, inFlight: endpointLoad } });
    const summary: DispatchSummary = { claimed: work.length, delivered: 0, retrying: 0, failed: 0 };
    // Resolves when every attempt claimed here is recorded (or failed to record).
    for (const state of await Promise.all(work.map(launch))) if (state !== undefined) summary[state] += 1;
    return summary;
  }

  /** Claims into every lane's free slots; true if a lane's read came back full, so more may be due. */
  async function fill(): Promise<boolean> {
    let more = false;
    for (const lane of ['webhook', 'discount_sync'] as const) {
      const free = lanes[lane].bound - lanes[lane].inFlight;
      if (free <= 0) continue;
      const bound = lane === 'webhook' ? { perEndpoint, inFlight: endpointLoad } : undefined;
      const claim = await claimDueWork(options.db, { now: now(), limit: free, leaseMs, lane, ...(bound ? { bound } : {}) });
      for (const work of claim.work) void launch(work);
      if (claim.more) more = true;
    }
    return more;
  }

  let running = false;
  let loop: Promise<void> | undefined;
  // A freed slot or stop() nudges the loop; a nudge during a claim is kept, not lost.
  let nudged = false;
  let wake: (() => void) | undefined;
  function nudge() {
    nudged = true;
    wake?.();
  }

  const idle = () =>
    new Promise<void>((resolve) => {
      if (nudged) return resolve();
      const timer = setTimeout(resolve, options.pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
      nudged = false;
    });

  const anyFree = () => Object.values(lanes).some((lane) => lane.inFlight < lane.bound);

  async function poll(): Promise<void> {
    while (running) {
      let more = false;
      try {
        more = await fill();
      } catch (error) {
        log.error({ err: error }, 'outbox dispatch failed; retrying after the poll interval');
      }
      // More may be due and a slot is free: claim again at once. Otherwise wait for a freed
      // slot (a nudge) or the poll interval.
      if (running && !(more && anyFree())) await idle();
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
      nudge();
      await loop;
      // SIGTERM drain: the attempts in hand finish (each within the webhook timeout) and are recorded.
      await Promise.allSettled([...inHand]);
    },
  };
}

