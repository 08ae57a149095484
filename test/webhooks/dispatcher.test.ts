/**
 * The outbox dispatcher against a real HTTP receiver: signed deliveries, the retry schedule
 * with jitter, Retry-After, 410 Gone, timeouts and network errors, a deleted endpoint and the
 * worker's stop. Discount sync jobs are in discount-sync-jobs.test.ts.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema.ts';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/outbox/retry-schedule.ts';
import { createWebhookSetup, resetBetweenTests } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

let s: WebhookSetup;
beforeAll(async () => {
  s = await createWebhookSetup();
});
afterAll(() => s.close());
beforeEach(() => resetBetweenTests(s));

/** A URL on a port nothing listens on (fetch refuses some well-known ports outright). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${address.port}/closed`;
}

const only = <T>(items: readonly T[]): T => {
  expect(items).toHaveLength(1);
  return items[0] as T;
};

describe('delivery', () => {
  it('POSTs the event signed per Standard Webhooks and marks it delivered', async () => {
    const { shop, endpointId, secret } = await s.newShop();
    const messageId = await s.emit(shop, 'gift.added', { campaignId: 'cmp_1', ruleId: 'rul_1', variantId: 'gid://shopify/ProductVariant/1' });
    const summary = await s.dispatcher().runOnce();
    expect(summary).toMatchObject({ claimed: 1, delivered: 1 });
    const request = only(s.receiver.requests.filter((r) => r.path === `/${shop.id}`));
    expect(request.headers['webhook-id']).toBe(messageId);
    expect(request.headers['content-type']).toBe('application/json');
    expect(Number(request.headers['webhook-timestamp'])).toBe(Math.floor(s.clock.now().getTime() / 1000));
    // The official verifier accepts it (its tolerance is against real time, hence the fresh header).
    const headers = { ...request.headers } as Record<string, string>;
    const body = new Webhook(secret).verify(request.body, headers) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'gift.added',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { shopId: shop.id, campaignId: 'cmp_1', ruleId: 'rul_1', variantId: 'gid://shopify/ProductVariant/1' },
    });
    const res = await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-deliveries` });
    expect(res.json()).toEqual({
      deliveries: [
        {
          id: expect.stringMatching(/^obx_/),
          endpointId,
          messageId,
          type: 'gift.added',
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 200,
          lastError: null,
          nextAttemptAt: expect.any(String),
          createdAt: expect.any(String),
          attemptLog: [{ attempt: 1, statusCode: 200, error: null, durationMs: expect.any(Number), attemptedAt: s.clock.now().toISOString() }],
        },
      ],
    });
  });

  it('only sends an endpoint the kinds it subscribed to', async () => {
    const { shop } = await s.newShop(['order.converted']);
    await s.emit(shop, 'gift.added');
    await s.emit(shop, 'order.converted', { orderId: '1' });
    await s.dispatcher().runOnce();
    expect(s.receiver.eventsAt(`/${shop.id}`).map((e) => e.type)).toEqual(['order.converted']);
  });

  it('does nothing when nothing is due', async () => {
    expect(await s.dispatcher().runOnce()).toEqual({ claimed: 0, delivered: 0, retrying: 0, failed: 0 });
  });
});

describe('retries', () => {
  it('retries a 500 after 5 s ±20 % with the same webhook-id, then delivers', async () => {
    const { shop } = await s.newShop();
    const messageId = await s.emit(shop);
    s.receiver.respond = () => ({ status: 500 });
    const low = s.dispatcher({ random: () => 0 });
    expect(await low.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    const [row] = await s.rows(shop);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'Receiver answered 500' });
    // random 0 → the low end of the jitter: exactly 4 s after the failure.
    expect(row?.nextAttemptAt.getTime()).toBe(s.clock.now().getTime() + 4000);
    expect(await low.runOnce()).toMatchObject({ claimed: 0 });
    s.clock.advance(4000);
    s.receiver.respond = () => ({ status: 204 });
    expect(await low.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    const requests = s.receiver.requests.filter((r) => r.path === `/${shop.id}`);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([messageId, messageId]);
    expect(requests[0]?.headers['webhook-signature']).not.toBe(requests[1]?.headers['webhook-signature']);
    expect((await s.attempts(shop)).map((a) => [a.attempt, a.statusCode]).sort()).toEqual([
      [1, 500],
      [2, 204],
    ]);
  });

  it('follows the whole schedule within the jitter bounds and fails after the last attempt', async () => {
    const { shop } = await s.newShop();
    await s.emit(shop);
    s.receiver.respond = () => ({ status: 503 });
    let draw = 0;
    // Alternate the extremes of the jitter: every delay must stay within ±20 % of the schedule.
    const dispatcher = s.dispatcher({ random: () => (draw++ % 2 === 0 ? 0 : 0.999999) });
    const gaps: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const failedAt = s.clock.now().getTime();
      expect(await dispatcher.runOnce(), `attempt ${attempt}`).toMatchObject({ claimed: 1 });
      const [row] = await s.rows(shop);
      if (attempt < MAX_ATTEMPTS) {
        expect(row?.status).toBe('pending');
        const gap = (row?.nextAttemptAt.getTime() ?? 0) - failedAt;
        gaps.push(gap);
        s.clock.set(row?.nextAttemptAt ?? 0);
      } else {
        expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastStatusCode: 503 });
      }
    }
    expect(MAX_ATTEMPTS).toBe(8);
    expect(gaps).toHaveLength(RETRY_DELAYS_MS.length);
    gaps.forEach((gap, i) => {
      const base = RETRY_DELAYS_MS[i] ?? 0;
      expect(gap).toBeGreaterThanOrEqual(base * 0.8);
      expect(gap).toBeLessThanOrEqual(base * 1.2);
    });
    expect(gaps[0]).toBe(4000);
    expect(gaps[1]).toBeCloseTo(360_000, -1);
    s.clock.advance(100 * 3_600_000);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 0 });
    expect(s.receiver.requests.filter((r) => r.path === `/${shop.id}`)).toHaveLength(8);
  });

  it('honours Retry-After in seconds and as an HTTP date, never earlier than the schedule, capped at a day', async () => {
    const cases: Array<[string, (now: Date) => string, number]> = [
      ['seconds', () => '120', 120_000],
      ['HTTP date', (now) => new Date(now.getTime() + 600_000).toUTCString(), 600_000],
      ['shorter than the schedule', () => '1', 5000],
      ['absurdly long', () => '999999999', 24 * 3_600_000],
    ];
    for (const [what, header, expected] of cases) {
      const { shop } = await s.newShop();
      await s.emit(shop);
      s.receiver.respond = () => ({ status: 429, headers: { 'retry-after': header(s.clock.now()) } });
      await s.dispatcher({ random: () => 0.5 }).runOnce();
      const [row] = await s.rows(shop);
      const delay = (row?.nextAttemptAt.getTime() ?? 0) - s.clock.now().getTime();
      // An HTTP date has whole seconds, and the attempt's own duration is subtracted from it.
      expect(Math.abs(delay - expected), what).toBeLessThan(2000);
    }
  });

  it('counts a timeout as a failed attempt', async () => {
    const { shop } = await s.newShop();
    await s.emit(shop);
    s.receiver.respond = () => 'hang';
    await s.dispatcher({ timeoutMs: 150, leaseMs: 5000 }).runOnce();
    const [row] = await s.rows(shop);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: 'Timed out after 150 ms' });
  });

  it('counts a refused connection and a redirect as failed attempts', async () => {
    const { shop } = await s.newShop();
    const closedPortUrl = await closedPort();
    const closed = await s.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/webhook-endpoints`,
      payload: { url: closedPortUrl, events: ['order.converted'] },
    });
    expect(closed.statusCode).toBe(201);
    await s.emit(shop, 'order.converted');
    s.receiver.respond = () => ({ status: 302, headers: { location: 'http://127.0.0.1:1/' } });
    expect(await s.dispatcher().runOnce()).toMatchObject({ claimed: 2, retrying: 2 });
    const errors = (await s.rows(shop)).map((row) => row.lastError).sort();
    expect(errors[0]).toBe('Receiver answered 302');
    expect(errors[1]).toMatch(/ECONNREFUSED/);
  });
});

describe('410 Gone', () => {
  it('disables the endpoint, fails the delivery, cancels the endpoint\'s other pending deliveries, and queues no more', async () => {
    const { shop, endpointId } = await s.newShop();
    await s.emit(shop);
    s.receiver.respond = () => ({ status: 500 });
    await s.dispatcher().runOnce();
    await s.emit(shop);
    await s.emit(shop);
    s.receiver.respond = () => ({ status: 410 });
    // Only the two new rows are due; the first waits for its retry.
    expect(await s.dispatcher({ batchSize: 1 }).runOnce()).toMatchObject({ claimed: 1, failed: 1 });
    const statuses = (await s.rows(shop)).map((row) => row.status).sort();
    expect(statuses).toEqual(['cancelled', 'cancelled', 'failed']);
    const listed = (await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-endpoints` })).json() as {
      endpoints: Array<{ id: string; disabledAt: string | null }>;
    };
    expect(listed.endpoints).toEqual([expect.objectContaining({ id: endpointId, disabledAt: s.clock.now().toISOString() })]);
    await s.emit(shop);
    expect(await s.rows(shop)).toHaveLength(3);
    const cancelled = (await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-deliveries?status=cancelled` })).json() as {
      deliveries: Array<{ lastError: string }>;
    };
    expect(cancelled.deliveries.map((d) => d.lastError)).toEqual([
      'Endpoint disabled: the receiver answered 410 Gone',
      'Endpoint disabled: the receiver answered 410 Gone',
    ]);
  });
});

describe('an endpoint deleted before delivery', () => {
  it('gets nothing: its pending deliveries are cancelled', async () => {
    const { shop, endpointId } = await s.newShop();
    await s.emit(shop);
    expect((await s.t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/webhook-endpoints/${endpointId}` })).statusCode).toBe(200);
    expect(await s.dispatcher().runOnce()).toMatchObject({ claimed: 0 });
    expect(s.receiver.requests.filter((r) => r.path === `/${shop.id}`)).toEqual([]);
    expect((await s.rows(shop)).map((r) => [r.status, r.lastError])).toEqual([['cancelled', 'Endpoint deleted']]);
  });
});

describe('the worker', () => {
  it('polls until stopped, and stop() waits for the batch in hand', async () => {
    const { shop } = await s.newShop();
    await s.emit(shop);
    s.receiver.respond = () => 'hang';
    const dispatcher = s.dispatcher({ now: () => new Date(Date.now() + 1000), timeoutMs: 400, leaseMs: 5000 });
    dispatcher.start();
    await s.receiver.waitFor(s.receiver.requests.length + 1);
    await dispatcher.stop();
    // The hung attempt was timed out and recorded before stop() resolved.
    const [row] = await s.rows(shop);
    expect(row).toMatchObject({ attempts: 1, lastError: 'Timed out after 400 ms' });
    expect(await s.t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.status, 'pending')))).toHaveLength(1);
  });
});
