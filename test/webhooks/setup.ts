/** A shop with one webhook endpoint on a real receiver, and dispatchers on an injected clock. */
import { and, eq } from 'drizzle-orm';
import { openPostgres } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { outbox, outboxAttempts } from '../../src/db/schema.ts';
import type { Database } from '../../src/db/database.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import type { DispatcherOptions, OutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import type { WebhookSenderOptions } from '../../src/webhooks/sender.ts';
import { writeOutbox } from '../../src/outbox/enqueue.ts';
import type { WebhookEventType } from '../../src/outbox/enqueue.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import type { DiscountPort } from '../../src/platform/discount-port.ts';
import { createTestDatabase, testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { LOOPBACK_RECEIVERS, startReceiver } from './receiver.ts';
import type { Receiver, Responder } from './receiver.ts';

export type Clock = { now: () => Date; set(at: Date | number): void; advance(ms: number): void };

/** A settable clock, starting a second ahead of real time so rows queued just now are due. */
export function testClock(): Clock {
  let at = Date.now() + 1000;
  return {
    now: () => new Date(at),
    set: (value) => {
      at = typeof value === 'number' ? value : value.getTime();
    },
    advance: (ms) => {
      at += ms;
    },
  };
}

export type WebhookSetup = {
  t: TestApp;
  receiver: Receiver;
  clock: Clock;
  newShop(events?: string[]): Promise<{ shop: TestShop; endpointId: string; secret: string }>;
  /**
   * A dispatcher of the test's database; `discountPort` replaces the recording port its platform
   * jobs use, and the sender's options (`allowList`, `fetch`, `timeoutMs`) its webhook sender's.
   */
  dispatcher(overrides?: Partial<DispatcherOptions> & WebhookSenderOptions & { discountPort?: DiscountPort }): OutboxDispatcher;
  /**
   * Stops every dispatcher `dispatcher()` built so far. Call it after each test that starts
   * one: a test that fails before its own stop() must not leave a dispatcher claiming the next
   * test's rows (one left running added its 2 slots to the next test's endpoint: 5 open where 3 are allowed).
   */
  stopDispatchers(): Promise<void>;
  /** Queues an event the way a feature does, in its own transaction; returns the message id. */
  emit(shop: TestShop, type?: WebhookEventType, data?: Record<string, unknown>, db?: Database): Promise<string>;
  rows(shop: TestShop): Promise<Array<typeof outbox.$inferSelect>>;
  attempts(shop: TestShop): Promise<Array<typeof outboxAttempts.$inferSelect>>;
  close(): Promise<void>;
};

export async function createWebhookSetup(respond?: Responder, options: { database?: DatabaseHandle } = {}): Promise<WebhookSetup> {
  // The receivers listen on loopback, which webhooks reach only when the operator allows it.
  const t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: LOOPBACK_RECEIVERS }, options);
  const receiver = await startReceiver(respond);
  const clock = testClock();
  const built: OutboxDispatcher[] = [];
  return {
    t,
    receiver,
    clock,
    async newShop(events) {
      const shop = await t.createShop('scale');
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/webhook-endpoints`,
        payload: { url: `${receiver.url}/${shop.id}`, ...(events ? { events } : {}) },
      });
      if (res.statusCode !== 201) throw new Error(res.body);
      const { endpoint } = res.json() as { endpoint: { id: string; secret: string } };
      return { shop, endpointId: endpoint.id, secret: endpoint.secret };
    },
    dispatcher({ discountPort = createRecordingDiscountPort(t.ctx.db), allowList = t.config.webhookAllowList, fetch, timeoutMs, ...overrides } = {}) {
      const dispatcher = createOutboxDispatcher({
        db: t.ctx.db,
        logger: t.ctx.logger,
        jobs: createPlatformJobs({ db: overrides.db ?? t.ctx.db, logger: t.ctx.logger, discountPort }),
        webhooks: createWebhookSender({ allowList, fetch, timeoutMs }),
        pollMs: 20,
        now: clock.now,
        ...overrides,
      });
      built.push(dispatcher);
      return dispatcher;
    },
    async stopDispatchers() {
      await Promise.all(built.splice(0).map((dispatcher) => dispatcher.stop()));
    },
    async emit(shop, type = 'gift.added', data = { campaignId: 'cmp_1' }, db = t.ctx.db) {
      const [messageId] = await db.transaction((tx) => writeOutbox(tx, shop.id, [{ kind: 'webhook', type, data }]));
      if (messageId === undefined) throw new Error('writeOutbox gave no message id for a webhook event');
      // The row is due at real time; a test clock behind it (a slow setup) would not see it.
      clock.set(Math.max(clock.now().getTime(), Date.now() + 1000));
      return messageId;
    },
    async rows(shop) {
      return t.ctx.db.select().from(outbox).where(eq(outbox.shopId, shop.id));
    },
    async attempts(shop) {
      return t.ctx.db.select().from(outboxAttempts).where(and(eq(outboxAttempts.shopId, shop.id)));
    },
    async close() {
      await receiver.close();
      await t.close();
    },
  };
}

/**
 * A webhook setup plus, on PostgreSQL, a second connection pool to the same database, so a
 * second dispatcher races the first as another instance would; PGlite is one process, so there
 * `secondDb` is undefined and both dispatchers share the one handle.
 *
 * @example
 *   const { setup, secondDb, close } = await createTwoInstanceWebhookSetup();
 *   const b = setup.dispatcher({ ...(secondDb ? { db: secondDb } : {}) });
 */
/**
 * Before each test of a dispatcher file: a receiver answering 200, the clock a second ahead, and
 * the retries left by earlier tests retired, so each test counts only its own work.
 */
export async function resetBetweenTests(s: WebhookSetup): Promise<void> {
  s.receiver.respond = () => ({ status: 200 });
  s.clock.set(Date.now() + 1000);
  await s.t.ctx.db.update(outbox).set({ status: 'cancelled' }).where(eq(outbox.status, 'pending'));
}

export async function createTwoInstanceWebhookSetup(): Promise<{
  setup: WebhookSetup;
  secondDb: Database | undefined;
  close(): Promise<void>;
}> {
  const database = await createTestDatabase();
  const setup = await createWebhookSetup(undefined, { database });
  const second =
    testDbKind() === 'postgres' && database.url ? await openPostgres(database.url, { migrate: false, poolSize: 5 }) : undefined;
  return {
    setup,
    secondDb: second?.db,
    async close() {
      await second?.close();
      await setup.close();
    },
  };
}
