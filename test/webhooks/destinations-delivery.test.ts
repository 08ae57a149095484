/**
 * Issue 20 item 2, at connect time: the dispatcher connects only where the destination policy
 * allows, judging the addresses a name resolves to at the moment of the connection, so neither
 * an endpoint saved earlier nor a name re-pointed later (DNS rebinding) reaches a local address.
 *
 * Names are resolved by an injected resolver, and connections go through a spy over undici's
 * connector that opens sockets to loopback only: a "public" answer is recorded and refused by
 * the spy, so no test sends a byte beyond this machine.
 */
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema.ts';
import { EMPTY_ALLOW_LIST, parseAllowList } from '../../src/webhooks/destination-policy.ts';
import type { DestinationAllowList } from '../../src/webhooks/destination-policy.ts';
import { createGuardedFetch } from '../../src/webhooks/guarded-fetch.ts';
import type { ResolveAll } from '../../src/webhooks/guarded-fetch.ts';
import type { TestShop } from '../support/test-app.ts';
import { createWebhookSetup } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

const PUBLIC = '93.184.216.34';

let s: WebhookSetup;
let port: string;
beforeAll(async () => {
  s = await createWebhookSetup();
  port = new URL(s.receiver.url).port;
});
afterAll(() => s.close());
beforeEach(async () => {
  s.receiver.respond = () => ({ status: 200 });
  // Each test counts only its own work: retries left by earlier tests are retired.
  await s.t.ctx.db.update(outbox).set({ status: 'cancelled' }).where(eq(outbox.status, 'pending'));
});

/** undici's connector, but only towards loopback; every target is recorded. */
function loopbackOnlyConnector() {
  const real = buildConnector({});
  const targets: string[] = [];
  const connect: buildConnector.connector = (target, callback) => {
    targets.push(target.hostname);
    if (target.hostname !== '127.0.0.1') {
      return callback(Object.assign(new Error(`the test sends nothing to ${target.hostname}`), { code: 'ECONNREFUSED' }), null);
    }
    return real(target, callback);
  };
  return { connect, targets };
}

/** A resolver answering `answers` in turn (the last one from then on), counting its calls. */
function scriptedResolver(...answers: string[][]): ResolveAll & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return answers[Math.min(calls.length, answers.length) - 1] ?? [];
  };
  return Object.assign(resolve, { calls });
}

/** A shop with one endpoint at `base`/<shop id> (saved by the test app, whose allow-list names 127.0.0.1). */
async function endpointAt(base: string): Promise<TestShop> {
  const shop = await s.t.createShop('scale');
  const res = await s.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: `${base}/${shop.id}` } });
  expect(res.statusCode, res.body).toBe(201);
  return shop;
}

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

function guardedDispatcher(options: { allowList?: DestinationAllowList; resolve?: ResolveAll; connect?: buildConnector.connector } = {}) {
  const { logger, lines } = capturedLogger();
  const guarded = createGuardedFetch({ allowList: options.allowList ?? EMPTY_ALLOW_LIST, ...options });
  return { dispatcher: s.dispatcher({ fetch: guarded.fetch, logger }), lines };
}

const receivedAt = (shop: TestShop) => s.receiver.requests.filter((r) => r.path === `/${shop.id}`);

describe('at connect time', () => {
  it('refuses an endpoint saved while its address was allowed, once it is not: no request, the reason in the log', async () => {
    const shop = await endpointAt(`${s.receiver.url}`);
    const { logger, lines } = capturedLogger();
    // The operator removed 127.0.0.1 from WEBHOOK_ALLOWED_HOSTS: the dispatcher's own fetch now refuses it.
    const dispatcher = s.dispatcher({ allowList: EMPTY_ALLOW_LIST, logger });
    await s.emit(shop);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(receivedAt(shop)).toEqual([]);
    const res = await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-deliveries` });
    const [delivery] = (res.json() as { deliveries: Array<Record<string, unknown> & { attemptLog: Array<Record<string, unknown>> }> }).deliveries;
    const reason = 'Refused before connecting: 127.0.0.1 is a loopback address, which webhooks may not reach';
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: null, lastError: reason });
    expect(delivery?.attemptLog).toEqual([expect.objectContaining({ statusCode: null, error: reason })]);
    expect(lines).toEqual([expect.objectContaining({ msg: 'webhook destination refused', shopId: shop.id, error: reason })]);
  });

  it('refuses a name that resolves to loopback before opening any connection', async () => {
    const shop = await endpointAt(`http://hooks.example.com:${port}`);
    const resolve = scriptedResolver(['127.0.0.1']);
    const spy = loopbackOnlyConnector();
    const { dispatcher, lines } = guardedDispatcher({ resolve, connect: spy.connect });
    await s.emit(shop);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(resolve.calls).toEqual(['hooks.example.com']);
    expect(spy.targets).toEqual([]);
    expect(receivedAt(shop)).toEqual([]);
    expect(lines[0]).toMatchObject({
      msg: 'webhook destination refused',
      error: 'Refused before connecting: hooks.example.com resolves to 127.0.0.1, a loopback address, which webhooks may not reach',
    });
  });

  it('judges every address of an answer: one local address among public ones is refused', async () => {
    const shop = await endpointAt(`http://hooks.example.com:${port}`);
    const spy = loopbackOnlyConnector();
    const { dispatcher } = guardedDispatcher({ resolve: scriptedResolver([PUBLIC, '::ffff:169.254.169.254']), connect: spy.connect });
    await s.emit(shop);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(spy.targets).toEqual([]);
    const [row] = await s.rows(shop);
    expect(row?.lastError).toMatch(/resolves to 169\.254\.169\.254, a link-local address/);
  });

  it('DNS rebinding: the name is looked up once per connection and the connection goes to the address judged', async () => {
    // First answer public, every later one loopback: a check that looked the name up apart
    // from the connection would pass the first and connect to the second.
    const shop = await endpointAt(`http://rebind.example.com:${port}`);
    const resolve = scriptedResolver([PUBLIC], ['127.0.0.1']);
    const spy = loopbackOnlyConnector();
    const { dispatcher } = guardedDispatcher({ resolve, connect: spy.connect });
    await s.emit(shop);

    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(resolve.calls).toHaveLength(1);
    expect(spy.targets).toEqual([PUBLIC]); // the judged address, refused by the spy: no traffic

    s.clock.advance(24 * 3600_000);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(resolve.calls).toHaveLength(2);
    expect(spy.targets).toEqual([PUBLIC]); // the loopback answer never reached the connector
    expect(receivedAt(shop)).toEqual([]);
    const [row] = await s.rows(shop);
    expect(row?.lastError).toBe('Refused before connecting: rebind.example.com resolves to 127.0.0.1, a loopback address, which webhooks may not reach');
  });

  it('does not follow a redirect towards a refused address', async () => {
    const shop = await endpointAt(`${s.receiver.url}`);
    s.receiver.respond = () => ({ status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    const spy = loopbackOnlyConnector();
    const { dispatcher } = guardedDispatcher({ allowList: s.t.config.webhookAllowList, connect: spy.connect });
    await s.emit(shop);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(spy.targets).toEqual(['127.0.0.1']);
    const [row] = await s.rows(shop);
    expect(row).toMatchObject({ lastStatusCode: 307, lastError: 'Receiver answered 307' });
  });
});

describe('WEBHOOK_ALLOWED_HOSTS at connect time', () => {
  it('lets a loopback receiver through by its address', async () => {
    const shop = await endpointAt(`${s.receiver.url}`);
    const { logger } = capturedLogger();
    await s.emit(shop);
    expect(await s.dispatcher({ logger }).runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receivedAt(shop)).toHaveLength(1);
  });

  it('lets a named receiver through, connecting to the address its name resolved to and sending the name', async () => {
    const parsed = parseAllowList('receiver.test');
    if (!parsed.ok) throw new Error('allow-list');
    // Saved by an app whose allow-list names 127.0.0.1 only: receiver.test looks public at save.
    const shop = await endpointAt(`http://receiver.test:${port}`);
    const spy = loopbackOnlyConnector();
    const { dispatcher } = guardedDispatcher({ allowList: parsed.allowList, resolve: scriptedResolver(['127.0.0.1']), connect: spy.connect });
    await s.emit(shop);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(spy.targets).toEqual(['127.0.0.1']);
    expect(receivedAt(shop).map((r) => r.headers.host)).toEqual([`receiver.test:${port}`]);
  });

  it('tries the judged addresses of a name in turn when one does not answer', async () => {
    const parsed = parseAllowList('receiver.test');
    if (!parsed.ok) throw new Error('allow-list');
    const shop = await endpointAt(`http://receiver.test:${port}`);
    const spy = loopbackOnlyConnector();
    // The first address "does not answer" (the spy refuses it without a socket).
    const { dispatcher } = guardedDispatcher({ allowList: parsed.allowList, resolve: scriptedResolver(['10.9.9.9', '127.0.0.1']), connect: spy.connect });
    await s.emit(shop);
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(spy.targets).toEqual(['10.9.9.9', '127.0.0.1']);
    expect(receivedAt(shop)).toHaveLength(1);
  });
});
