/**
 * One slow or dead receiver never delays anyone else (issue 9): attempts run continuously with
 * a bound per endpoint, and discount syncs have their own lane. Real receivers, real databases
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL); the delays printed are the figures in the docs.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { outbox } from '../../src/db/schema.ts';
import { enqueueJob } from '../../src/outbox/enqueue.ts';
import type { DiscountPort } from '../../src/platform/discount-port.ts';
import type { TestShop } from '../support/test-app.ts';
import { testDbKind } from '../support/database.ts';
import { createTwoInstanceWebhookSetup } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

/** The dead receiver's attempts time out after this; the healthy ones must arrive well before. */
const TIMEOUT_MS = 5000;
const HEALTHY_WITHIN_MS = 2000;
/** 200 syncs of 200 ms took 1.5 s to get through before they had their own lane (20 at a time). */
const BEHIND_SYNCS_WITHIN_MS = 500;

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

async function addEndpoint(shop: TestShop, path: string): Promise<void> {
  const res = await s.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: `${s.receiver.url}${path}` } });
  expect(res.statusCode).toBe(201);
}

/** Resolves with the real time at which `count` requests under `path` have arrived. */
async function arrival(path: string, count: number, withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const got = s.receiver.requests.filter((r) => r.path === path);
    const last = got[count - 1];
    if (last) return last.receivedAt;
    if (Date.now() > deadline) throw new Error(`${got.length} of ${count} requests at ${path} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a receiver that never answers', () => {
  it('holds only its own endpoint\'s slots: other shops and the same shop\'s other endpoint are delivered at once, and stop() drains', async () => {
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
    const dispatcher = s.dispatcher({ concurrency: 4, perEndpoint: 2, timeoutMs: TIMEOUT_MS });
    const started = Date.now();
    dispatcher.start();
    const other = (await arrival(otherPath, 1, HEALTHY_WITHIN_MS)) - started;
    const sibling = (await arrival(siblingPath, 10, HEALTHY_WITHIN_MS)) - started;
    console.log(`[slow-receiver] ${testDbKind()}: other shop delivered after ${other} ms, same shop's healthy endpoint (10 events) after ${sibling} ms`);
    expect(other).toBeLessThan(HEALTHY_WITHIN_MS);
    expect(sibling).toBeLessThan(HEALTHY_WITHIN_MS);
    expect(s.receiver.requests.filter((r) => r.path === deadPath)).toHaveLength(2);
    expect(s.receiver.maxOpen(deadPath)).toBe(2);
    expect(s.receiver.maxOpen(siblingPath)).toBeLessThanOrEqual(2);

    // SIGTERM drain: the two hanging attempts run to their timeout and are recorded; nothing new is sent.
    const stopping = Date.now();
    await dispatcher.stop();
    const drained = Date.now() - stopping;
    expect(drained).toBeLessThan(TIMEOUT_MS + 1000);
    expect(s.receiver.requests.filter((r) => r.path === deadPath)).toHaveLength(2);
    const rows = await s.rows(slowShop);
    const timedOut = rows.filter((row) => row.lastError === `Timed out after ${TIMEOUT_MS} ms`);
    expect(timedOut).toHaveLength(2);
    expect(timedOut.every((row) => row.status === 'pending' && row.attempts === 1)).toBe(true);
    // The rest of the dead endpoint's backlog was never claimed: no attempt counted.
    expect(rows.filter((row) => row.attempts === 0 && row.status === 'pending')).toHaveLength(8);
    expect(rows.filter((row) => row.status === 'delivered')).toHaveLength(10);
  }, 20_000);
});

describe('the per-endpoint bound', () => {
  it('keeps at most that many requests open at one receiver while freed slots refill at once', async () => {
    const { shop } = await s.newShop();
    const path = `/${shop.id}`;
    s.receiver.respond = () => ({ status: 200, delayMs: 150 });
    for (let i = 0; i < 12; i += 1) await s.emit(shop);
    const dispatcher = s.dispatcher({ concurrency: 20, perEndpoint: 3 });
    const started = Date.now();
    dispatcher.start();
    await arrival(path, 12, 5000);
    await dispatcher.stop();
    // 12 answers of 150 ms three at a time: four rounds, not twelve (serial) nor one (unbounded).
    expect(s.receiver.maxOpen(path)).toBe(3);
    expect(Date.now() - started).toBeLessThan(12 * 150);
    expect((await s.rows(shop)).every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
  });
});

describe('a discount-sync backlog', () => {
  it('does not delay a webhook, and syncs keep to their own lane', async () => {
    const { shop } = await s.newShop();
    let open = 0;
    let maxOpen = 0;
    const slowPort: DiscountPort = {
      async syncAutomaticDiscount() {
        open += 1;
        maxOpen = Math.max(maxOpen, open);
        await new Promise((resolve) => setTimeout(resolve, 200));
        open -= 1;
      },
      writeCheckoutConfig: () => Promise.resolve(),
    };
    await s.t.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 200; i += 1) await enqueueJob(tx, shop.id, 'discount_sync', { campaignId: `cmp_backlog${i}`, active: false });
    });
    await s.emit(shop);
    const dispatcher = s.dispatcher({ discountPort: slowPort, concurrency: 4, syncConcurrency: 2 });
    const started = Date.now();
    dispatcher.start();
    const delay = (await arrival(`/${shop.id}`, 1, BEHIND_SYNCS_WITHIN_MS)) - started;
    console.log(`[slow-receiver] ${testDbKind()}: webhook behind 200 queued syncs delivered after ${delay} ms`);
    await dispatcher.stop();
    expect(delay).toBeLessThan(BEHIND_SYNCS_WITHIN_MS);
    expect(maxOpen).toBe(2);
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
    for (const { shop } of shops) await arrival(`/${shop.id}`, 20, 10_000);
    await Promise.all([a.stop(), b.stop()]);
    const received = s.receiver.requests.filter((r) => shops.some(({ shop }) => r.path === `/${shop.id}`)).map((r) => String(r.headers['webhook-id']));
    expect(received).toHaveLength(ids.length);
    expect(new Set(received)).toEqual(new Set(ids));
    for (const { shop } of shops) {
      expect((await s.rows(shop)).every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
      expect(s.receiver.maxOpen(`/${shop.id}`)).toBeLessThanOrEqual(4);
    }
  }, 20_000);
});
