import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPlatformBody } from '../../src/orders/platform-signature.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { order, postOrder } from './fixtures.ts';

const SECRET = 'platform-app-secret-for-tests';
const URL = '/webhooks/platform/orders';

describe('POST /webhooks/platform/orders', () => {
  let t: TestApp;
  let shop: TestShop;
  let domain: string;

  beforeAll(async () => {
    t = await createTestApp({ PLATFORM_WEBHOOK_SECRET: SECRET });
    shop = await t.createShop('growth');
    domain = ((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` })).json() as { shop: { domain: string } }).shop.domain;
  });
  afterAll(() => t.close());

  const send = (raw: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: URL, payload: raw, headers: { 'content-type': 'application/json', ...headers } });
  const signed = (raw: string, extra: Record<string, string> = {}) =>
    send(raw, { 'x-platform-shop-domain': domain, 'x-platform-hmac-sha256': signPlatformBody(raw, SECRET), ...extra });

  it('takes an order signed over its raw body, byte for byte', async () => {
    // Whitespace and key order the platform chose are part of what was signed.
    const raw = `{ "id": "wh-1",\n  "completedAt": "2026-01-05T10:00:00Z", "currency": "USD", "total": 4200, "lines": [] }`;
    const res = await signed(raw);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, duplicate: false });
  });

  it('reaches the same intake as the admin route: the same order is a duplicate there', async () => {
    const body = order({ id: 'wh-2' });
    expect((await signed(JSON.stringify(body))).json()).toEqual({ ok: true, duplicate: false });
    expect((await postOrder(t, shop.id, body)).json()).toEqual({ ok: true, duplicate: true });
    expect((await signed(JSON.stringify(body))).json()).toEqual({ ok: true, duplicate: true });
  });

  it('accepts a shop domain header in any case', async () => {
    const raw = JSON.stringify(order({}));
    expect((await signed(raw, { 'x-platform-shop-domain': domain.toUpperCase() })).statusCode).toBe(200);
  });

  it.each([
    ['a missing signature', (raw: string) => ({ 'x-platform-shop-domain': domain, _raw: raw })],
    ['an empty signature', () => ({ 'x-platform-hmac-sha256': '' })],
    ['a signature of another body', () => ({ 'x-platform-hmac-sha256': signPlatformBody('{}', SECRET) })],
    ['a signature with another secret', (raw: string) => ({ 'x-platform-hmac-sha256': signPlatformBody(raw, 'wrong-secret') })],
    ['a hex signature', (raw: string) => ({ 'x-platform-hmac-sha256': Buffer.from(signPlatformBody(raw, SECRET), 'base64').toString('hex') })],
    ['a truncated signature', (raw: string) => ({ 'x-platform-hmac-sha256': signPlatformBody(raw, SECRET).slice(0, 20) })],
    ['garbage', () => ({ 'x-platform-hmac-sha256': '!!not base64!!' })],
  ])('answers 401 for %s and records nothing', async (_name, headersOf) => {
    const body = order({ id: `unsigned-${_name}` });
    const raw = JSON.stringify(body);
    const { _raw: _ignored, ...headers } = { 'x-platform-shop-domain': domain, ...headersOf(raw) } as Record<string, string>;
    const res = await send(raw, headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    expect((await postOrder(t, shop.id, body)).json()).toEqual({ ok: true, duplicate: false });
  });

  it('answers 401 when one byte of a signed body changed', async () => {
    const raw = JSON.stringify(order({ id: 'tampered', total: 100 }));
    const res = await send(raw.replace('"total":100', '"total":900'), {
      'x-platform-shop-domain': domain,
      'x-platform-hmac-sha256': signPlatformBody(raw, SECRET),
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 for an unknown or missing shop domain', async () => {
    const raw = JSON.stringify(order({}));
    expect((await signed(raw, { 'x-platform-shop-domain': 'nobody.example.com' })).statusCode).toBe(404);
    const noDomain = await send(raw, { 'x-platform-hmac-sha256': signPlatformBody(raw, SECRET) });
    expect(noDomain.statusCode).toBe(404);
    expect(noDomain.json()).toEqual(errorBody('Shop not found', 'not_found'));
  });

  it('answers 400 for a signed body that is not JSON or not an Order', async () => {
    const malformed = await signed('{"id": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'Malformed JSON body' });
    const invalid = await signed(JSON.stringify({ ...order({}), total: -5 }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'Invalid order body', path: ['total'] });
  });

  it('answers 415 for a signed body that is not JSON by content type (401 unsigned), and 405 for another method', async () => {
    const text = await signed('x', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    // Signature first: an unsigned request is refused before its content type is looked at.
    const unsigned = await t.app.inject({ method: 'POST', url: URL, payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect(unsigned.statusCode).toBe(401);
    const get = await t.app.inject({ method: 'GET', url: URL });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('leaves JSON parsing of every other route alone', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
    expect(res.statusCode).toBe(403);
    const admin = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, payload: order({}) });
    expect(admin.json()).toEqual({ ok: true, duplicate: false });
  });

  it('does not exist without PLATFORM_WEBHOOK_SECRET', async () => {
    const plain = await createTestApp();
    try {
      const raw = JSON.stringify(order({}));
      const res = await plain.app.inject({
        method: 'POST',
        url: URL,
        payload: raw,
        headers: { 'content-type': 'application/json', 'x-platform-hmac-sha256': signPlatformBody(raw, SECRET) },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
