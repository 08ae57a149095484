/**
 * Issue 9 item 5, "Secrets never logged": a trace-level run whose whole log is captured and
 * grepped. Malformed requests carry the admin token, an API key and credential headers (raw
 * packets Node cannot parse, bad JSON, bad auth); failed queries carry a webhook secret and a
 * key hash in their parameters; a platform access token is set, sent malformed, and logged in
 * an error and in fields. None of those strings may appear anywhere in the log.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/api-keys/store.ts';
import { createEndpoint } from '../../src/webhooks/store.ts';
import { ADMIN_TOKEN, createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const PLATFORM_SECRET = 'platform-app-secret-0123456789';
const STOREFRONT_TOKEN = 'sft_0123456789abcdefghij';
const ACCESS_TOKEN = `shpat_${'0f'.repeat(16)}`;
const LEGACY_ACCESS_TOKEN = 'e'.repeat(32);
const lines: string[] = [];

let t: TestApp;
let shop: TestShop;
let port: number;
beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'trace', PLATFORM_WEBHOOK_SECRET: PLATFORM_SECRET },
    { logDestination: { write: (chunk: string) => void lines.push(chunk) } },
  );
  shop = await t.createShop('scale');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Sends raw bytes and resolves with whatever the server answers before it closes. */
function raw(text: string): Promise<string> {
  return new Promise((resolve) => {
    let response = '';
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.end(text));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      response += chunk;
    });
    socket.on('error', () => resolve(response));
    socket.on('close', () => resolve(response));
  });
}

async function failedQueryParams(run: () => Promise<unknown>): Promise<unknown[]> {
  try {
    await run();
  } catch (error) {
    // What the error handler does with a 500; and the bare form pino also accepts.
    t.app.log.error({ err: error }, 'request failed');
    t.ctx.logger.error(error);
    const params = (error as { params?: unknown[] }).params;
    if (Array.isArray(params)) return params;
  }
  throw new Error('the query was expected to fail with parameters');
}

describe('logs at LOG_LEVEL=trace', () => {
  it('never contain the admin token, API keys, key hashes, webhook secrets or credential headers', async () => {
    const credentials =
      `Authorization: Bearer ${shop.key}\r\nX-Storefront-Token: ${STOREFRONT_TOKEN}\r\n` +
      `Cookie: session=${STOREFRONT_TOKEN}\r\nWebhook-Signature: v1,${STOREFRONT_TOKEN}\r\n`;
    // Raw packets the HTTP parser refuses: Node attaches them to the error Fastify logs.
    expect(await raw(`GET /api/v1/campaigns HTTP/1.1\r\nHost: x\r\n${credentials}Bad Header Line\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET /admin/v1/shops HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\x01\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    // Malformed bodies and credentials the app reads and refuses.
    const badJson = { 'content-type': 'application/json', 'x-storefront-token': STOREFRONT_TOKEN };
    expect((await t.api(shop, { method: 'POST', url: '/api/v1/events', headers: badJson, payload: `{"key":"${shop.key}"` })).statusCode).toBe(400);
    expect((await t.admin({ method: 'POST', url: '/admin/v1/shops', headers: badJson, payload: `{"token":"${ADMIN_TOKEN}` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/campaigns?key=${shop.key}`, headers: { authorization: `Bearer ${shop.key}x` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/api-keys`, headers: { authorization: `Bearer ${ADMIN_TOKEN}-wrong` } })).statusCode).toBe(401);
    // A publishable storefront token, in its header and pasted into a URL.
    const created = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/storefront-tokens`, payload: { allowedOrigins: ['https://shop.example'] } });
    const spk = (created.json() as { token: string }).token;
    const spkRequest = { method: 'GET' as const, url: `/storefront/v1/rules?token=${spk}`, headers: { 'x-storefront-token': spk, origin: 'https://elsewhere.example' } };
    expect((await t.app.inject(spkRequest)).statusCode).toBe(403);

    // A platform access token: set through the admin API (valid, and in a body that is not
    // JSON), in the header the platform's client sends, and in an error and a field.
    const connection = `/admin/v1/shops/${shop.id}/platform-connection`;
    expect((await t.admin({ method: 'PUT', url: connection, payload: { accessToken: ACCESS_TOKEN } })).statusCode).toBe(200);
    expect((await t.admin({ method: 'PUT', url: connection, payload: { accessToken: LEGACY_ACCESS_TOKEN } })).statusCode).toBe(200);
    expect((await t.admin({ method: 'PUT', url: connection, headers: { 'content-type': 'application/json' }, payload: `{"accessToken":"${ACCESS_TOKEN}` })).statusCode).toBe(400);
    expect(await raw(`GET /admin/v1/shops HTTP/1.1\r\nHost: x\r\nX-Shopify-Access-Token: ${LEGACY_ACCESS_TOKEN}\r\n\x01\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    t.ctx.logger.error(new Error(`GraphQL request with ${ACCESS_TOKEN} failed`));
    t.ctx.logger.warn({ accessToken: LEGACY_ACCESS_TOKEN, headers: { 'X-Shopify-Access-Token': LEGACY_ACCESS_TOKEN } }, 'platform call');

    // Failed queries whose parameters carry a webhook secret and an API key hash.
    const endpointParams = await failedQueryParams(() =>
      createEndpoint(t.ctx.db, 'shp_doesnotexist000000', { url: 'https://example.com/hook', events: [] }),
    );
    const webhookSecret = endpointParams.find((p): p is string => typeof p === 'string' && p.startsWith('whsec_'));
    const keyParams = await failedQueryParams(() => createApiKey(t.ctx.db, 'shp_doesnotexist000000', 'leaky'));
    const keyHash = keyParams.find((p): p is string => typeof p === 'string' && /^[0-9a-f]{64}$/.test(p));
    expect(webhookSecret).toBeDefined();
    expect(keyHash).toBeDefined();

    const log = lines.join('');
    // The log did record these events (a test that logs nothing would pass vacuously).
    expect(log).toContain('client error');
    expect(log).toContain('Failed query');
    expect(log).toContain('incoming request');
    expect(log).toContain('params: [REDACTED]');

    const secrets = {
      adminToken: ADMIN_TOKEN,
      apiKey: shop.key,
      apiKeySecretPart: shop.key.slice(-28),
      apiKeyHash: createHash('sha256').update(shop.key).digest('hex'),
      storefrontToken: STOREFRONT_TOKEN,
      publishableToken: spk,
      platformSecret: PLATFORM_SECRET,
      accessToken: ACCESS_TOKEN.slice('shpat_'.length),
      legacyAccessToken: LEGACY_ACCESS_TOKEN,
      webhookSecret: webhookSecret ?? 'unset',
      webhookSecretBody: (webhookSecret ?? 'unset').slice('whsec_'.length),
      failedKeyHash: keyHash ?? 'unset',
    };
    const found = Object.entries(secrets).filter(([, secret]) => log.includes(secret)).map(([name]) => name);
    expect(found).toEqual([]);
    expect(log).not.toMatch(/whsec_(?!\[REDACTED\])[A-Za-z0-9+/]/);
    expect(log).not.toMatch(/gcr_[0-9A-Za-z]{16}_[0-9A-Za-z]{32}/);
    expect(log).toContain(`${spk.slice(0, 25)}[REDACTED]`);
    expect(log).toContain('shpat_[REDACTED]');
    expect(log).toContain('platform connection set');
  }, 30_000);
});
