/**
 * One slow or dead receiver never delays anyone else (issue 9): attempts run continuously with
 * a bound per endpoint, and discount syncs have their own lane. Real receivers, real databases
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL); the delays printed are the figures in the docs.
 *
 * Nothing here is timed against a stopwatch (issue 20): a loaded machine makes every step
 * slower, so each test proves its point by the order of events — a healthy delivery arrives
 * while the dead receiver's requests still hang, a freed slot is refilled while the others are
 * still held — and by counters (rows claimed, requests open).
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { outbox } from '../../src/db/schema.ts';
import { DEFAULT_PER_ENDPOINT } from '../../src/outbox/dispatcher.ts';
import { writeOutbox } from '../../src/outbox/enqueue.ts';
import type { DiscountPort } from '../../src/platform/discount-port.ts';
import type { FetchLike } from '../../src/webhooks/guarded-fetch.ts';
import type { TestShop } from '../support/test-app.ts';
import { testDbKind } from '../support/database.ts';
import { createTwoInstanceWebhookSetup } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

/**
 * The dead receiver's timeout: far longer than the healthy deliveries take even at load 20,
 * so it cannot fire while they are checked; the test fires it itself (`testTimeout`).
 */
const TIMEOUT_MS = 30_000;

let s: WebhookSetup;
let second: Database | undefined;
let closeSetup: () => Promise<void>;
const dead = new Set<string>();
beforeAll(async () => {
  ({ setup: s, secondDb: second, close: closeSetup } = await createTwoInstanceWebhookSetup());
});
afterAll(() => closeSetup());
beforeEach(async () => {
  dead.clear();
  s.receiver.respond = (request) => (dead.has(request.path) ? 'hang' : { status: 200 });
  s.clock.set(Date.now() + 1000);
  // Each test counts only its own work: rows left by earlier tests are retired.
  await s.t.ctx.db.update(outbox).set({ status: 'cancelled' }).where(eq(outbox.status, 'pending'));
});
afterEach(async () => {
  // A test that failed half-way must not leave a dispatcher claiming the next test's rows:
  // new requests are answered, hanging ones dropped (their attempts end at once), all stopped.
  s.receiver.respond = () => ({ status: 200 });
  const stopping = s.stopDispatchers();
  s.receiver.dropHanging();
  await stopping;
});

async function addEndpoint(shop: TestShop, path: string): Promise<void> {
  const res = await s.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: `${s.receiver.url}${path}` } });
  expect(res.statusCode).toBe(201);
}

/**
 * A fetch whose timeout the test fires: `fire()` aborts every attempt in hand exactly as the
 * dispatcher's own timeout would (a TimeoutError), so the attempt is recorded as timed out.
 */
function testTimeout(): { fetch: FetchLike; fire(): void } {
  const controller = new AbortController();
  return {
    fetch: (url, init) => fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal }),
    fire: () => controller.abort(new DOMException('The test fired the timeout', 'TimeoutError')),
  };
}

/** Resolves once `done()` holds; checked every few ms, bounded only by the test's timeout. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The test clock, counting its reads: every dispatcher poll reads it, so polls are counted, not timed. */
function countingClock(): { now: () => Date; reads: () => number } {
  let reads = 0;
  return {
    now: () => {
      reads += 1;
      return s.clock.now();
    },
    reads: () => reads,
  };
}

/** Resolves after the dispatchers on `clock` have read it `by` more times (polled again). */
async function polledAgain(clock: { reads: () => number }, by: number): Promise<void> {
  const target = clock.reads() + by;
  await until(() => clock.reads() >= target);
}

describe('a receiver that never answers', () => {
  it('holds only its own endpoint\'s slots: other shops and the same shop\'s other endpoint are delivered while it hangs, and stop() drains', async () => {
    const { shop: slowShop } = await s.newShop();
    const { shop: otherShop } = await s.newShop();
    const deadPath = `/${slowShop.id}`;
    const siblingPath = `/${slowShop.id}/healthy`;
    const otherPath = `/${otherShop.id}`;
    dead.add(deadPath);
    await addEndpoint(slowShop, siblingPath);
    // The dead endpoint's backlog is queued first, so it is the oldest due work.
    for (let i = 0; i < 10; i += 1) await s.emit(slowShop);
    await s.emit(otherShop);

    // Four slots in all, two per endpoint: the dead receiver's ten rows can hold two at most.
    const timeout = testTimeout();
    const dispatcher = s.dispatcher({ concurrency: 4, perEndpoint: 2, timeoutMs: TIMEOUT_MS, fetch: timeout.fetch });
    const started = Date.now();
    dispatcher.start();
    await s.receiver.arrived(otherPath, 1);
    const other = Date.now() - started;
    await s.receiver.arrived(siblingPath, 10);
    const sibling = Date.now() - started;
    console.log(`[slow-receiver] ${testDbKind()}: other shop delivered after ${other} ms, same shop's healthy endpoint (10 events) after ${sibling} ms`);
    // Everything healthy arrived while both dead attempts still hang: nobody waited for them.
    expect(s.receiver.openNow(deadPath)).toBe(2);
    expect(s.receiver.requests.filter((r) => r.path === deadPath)).toHaveLength(2);
    expect(s.receiver.maxOpen(deadPath)).toBe(2);
    expect(s.receiver.maxOpen(siblingPath)).toBeLessThanOrEqual(2);

    // SIGTERM drain: stop() waits for the two hanging attempts until they time out, and sends
    // nothing new. Still waiting after 100 ms is a lower bound, which a slow machine only helps.
    let stopped = false;
    const stopping = dispatcher.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    timeout.fire();
    await stopping;
    expect(s.receiver.requests.filter((r) => r.path === deadPath)).toHaveLength(2);
    const rows = await s.rows(slowShop);
    const timedOut = rows.filter((row) => row.lastError === `Timed out after ${TIMEOUT_MS} ms`);
    expect(timedOut).toHaveLength(2);
    expect(timedOut.every((row) => row.status === 'pending' && row.attempts === 1)).toBe(true);
    // The rest of the dead endpoint's backlog was never claimed: no attempt counted.
    expect(rows.filter((row) => row.attempts === 0 && row.status === 'pending')).toHaveLength(8);
    expect(rows.filter((row) => row.status === 'delivered')).toHaveLength(10);
  }, 30_000);
});

describe('the per-endpoint bound', () => {
  // The bound is per instance (each counts its own attempts in flight): N instances put at most
  // N × perEndpoint requests open at one receiver, as docs/operations.md says.
  it.each([
    { instances: 1, perEndpoint: 3 },
    { instances: 2, perEndpoint: 2 },
  ])('$instances instance(s) × $perEndpoint: never more open at one receiver, and a freed slot is refilled while the others still hang', async ({ instances, perEndpoint }) => {
    const bound = instances * perEndpoint;
    const rowCount = 12;
    const { shop } = await s.newShop();
    const path = `/${shop.id}`;
    s.receiver.respond = () => 'hang';
    for (let i = 0; i < rowCount; i += 1) await s.emit(shop);
    const clock = countingClock();
    const dispatchers = Array.from({ length: instances }, (_, i) =>
      s.dispatcher({ concurrency: 20, perEndpoint, now: clock.now, ...(i > 0 && second ? { db: second } : {}) }),
    );
    for (const dispatcher of dispatchers) dispatcher.start();
    const claimed = async () => (await s.rows(shop)).filter((row) => row.attempts > 0).length;

    await s.receiver.arrived(path, bound);
    // Every instance polls (reads its clock) many more times with all slots of the endpoint
    // taken: the database shows exactly `bound` rows claimed, the receiver `bound` open.
    await polledAgain(clock, 20 * instances);
    expect(await claimed()).toBe(bound);
    expect(s.receiver.openNow(path)).toBe(bound);

    // Answer one at a time: each answer frees one slot, refilled at once while the others still
    // hang (a batch dispatcher would wait for all of them).
    for (let answered = 1; answered <= rowCount - bound; answered += 1) {
      expect(s.receiver.release(path)).toBe(true);
      await s.receiver.arrived(path, bound + answered);
      expect(s.receiver.openNow(path)).toBeLessThanOrEqual(bound);
    }
    while (s.receiver.release(path));
    await s.stopDispatchers();
    expect(s.receiver.requests.filter((r) => r.path === path)).toHaveLength(rowCount);
    expect(s.receiver.maxOpen(path)).toBe(bound);
    expect((await s.rows(shop)).every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
  });
});

describe('a discount-sync backlog', () => {
  it('does not delay a webhook, and syncs keep to their own lane', async () => {
    const { shop } = await s.newShop();
    let open = 0;
    let maxOpen = 0;
    let finished = 0;
    // The syncs hang until the test lets them go: a webhook waiting behind them never arrives.
    let releaseSyncs = () => {};
    const syncsHang = new Promise<void>((resolve) => {
      releaseSyncs = resolve;
    });
    const slowPort: DiscountPort = {
      async syncAutomaticDiscount() {
        open += 1;
        maxOpen = Math.max(maxOpen, open);
        await syncsHang;
        open -= 1;
        finished += 1;
      },
      writeCheckoutConfig: () => Promise.resolve(),
    };
    await s.t.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 200; i += 1) await writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: { campaignId: `cmp_backlog${i}`, active: false } }]);
    });
    await s.emit(shop);
    const clock = countingClock();
    const dispatcher = s.dispatcher({ discountPort: slowPort, concurrency: 4, syncConcurrency: 2, now: clock.now });
    try {
      const started = Date.now();
      dispatcher.start();
      await s.receiver.arrived(`/${shop.id}`, 1);
      console.log(`[slow-receiver] ${testDbKind()}: webhook behind 200 queued syncs delivered after ${Date.now() - started} ms`);
      expect(finished).toBe(0);
      // The sync lane fills its own two slots and no more, however often the dispatcher polls.
      await until(() => open === 2);
      await polledAgain(clock, 20);
      expect(maxOpen).toBe(2);
    } finally {
      releaseSyncs();
    }
    await dispatcher.stop();
    expect(open).toBe(0);
  });
});

describe('two dispatchers running continuously', () => {
  it('never send one attempt twice', async () => {
    const shops = [await s.newShop(), await s.newShop(), await s.newShop()];
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) for (const { shop } of shops) ids.push(await s.emit(shop));
    s.receiver.respond = () => ({ status: 200, delayMs: 20 });
    const a = s.dispatcher({ concurrency: 5 });
    const b = s.dispatcher({ concurrency: 5, ...(second ? { db: second } : {}) });
    a.start();
    b.start();
    for (const { shop } of shops) await s.receiver.arrived(`/${shop.id}`, 20, 45_000);
    await Promise.all([a.stop(), b.stop()]);
    const received = s.receiver.requests.filter((r) => shops.some(({ shop }) => r.path === `/${shop.id}`)).map((r) => String(r.headers['webhook-id']));
    expect(received).toHaveLength(ids.length);
    expect(new Set(received)).toEqual(new Set(ids));
    for (const { shop } of shops) {
      expect((await s.rows(shop)).every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
      // The true bound: per endpoint per instance, two instances here.
      expect(s.receiver.maxOpen(`/${shop.id}`)).toBeLessThanOrEqual(2 * DEFAULT_PER_ENDPOINT);
    }
  }, 60_000);
});
