/**
 * CORS, decided (src/http/cors.ts, docs/api-conventions.md): /api/v1 and /admin/v1 are
 * server-to-server. No response carries Access-Control-* headers, and a browser's preflight
 * gets a 405 that says why, so the browser refuses the real request.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const ORIGIN = 'https://attacker.example';
const preflight = (method: string) => ({
  origin: ORIGIN,
  'access-control-request-method': method,
  'access-control-request-headers': 'authorization, content-type',
});

const corsHeaders = (res: LightMyRequestResponse) => Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));

let t: TestApp;
let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
});
afterAll(() => t.close());

describe('CORS preflight on the server-to-server APIs', () => {
  it.each([
    ['/api/v1/campaigns', 'GET', 'GET'],
    ['/api/v1/campaigns/cmp_1', 'PUT', 'GET, PUT, DELETE'],
    ['/api/v1/campaigns/cmp_1/enable', 'POST', 'POST'],
    ['/api/v1/evaluate', 'POST', 'POST'],
    ['/admin/v1/shops', 'POST', 'GET, POST'],
  ])('OPTIONS %s (for %s) is a 405 with the reason and no CORS headers', async (url, method, allow) => {
    const res = await t.app.inject({ method: 'OPTIONS', url, headers: preflight(method) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(corsHeaders(res)).toEqual([]);
    expect(res.json()).toMatchObject({ error: 'Method not allowed', issue: expect.stringMatching(/^Browsers may not call this API \(no CORS\)/) });
  });

  it("answers the same for any shop's admin path, existing or not (no shop is looked up)", async () => {
    const answers = await Promise.all(
      [shop.id, other.id, 'shp_missing'].map((id) =>
        t.app.inject({ method: 'OPTIONS', url: `/admin/v1/shops/${id}/campaigns`, headers: preflight('GET') }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(405);
      expect(corsHeaders(res)).toEqual([]);
    }
    // Bodies differ only by their own requestId.
    expect(new Set(answers.map((res) => JSON.stringify({ ...(res.json() as object), requestId: undefined }))).size).toBe(1);
  });

  it('answers an unknown path with the usual 404, without CORS headers', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/nowhere', headers: preflight('GET') });
    expect(res.statusCode).toBe(404);
    expect(corsHeaders(res)).toEqual([]);
  });

  it('keeps the plain 405 for an OPTIONS that is not a preflight (a server-side client)', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/campaigns' });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual(errorBody('Method not allowed', 'method_not_allowed'));
  });
});

describe('requests that carry an Origin', () => {
  it('are served as any server-to-server call, never with CORS headers, on success or error', async () => {
    const responses = await Promise.all([
      t.api(shop, { method: 'GET', url: '/api/v1/campaigns', headers: { origin: ORIGIN } }),
      t.app.inject({ method: 'GET', url: '/api/v1/campaigns', headers: { origin: ORIGIN } }),
      t.api(other, { method: 'GET', url: '/api/v1/campaigns/cmp_of_another_shop', headers: { origin: ORIGIN } }),
      t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}`, headers: { origin: ORIGIN } }),
      t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { origin: ORIGIN } }),
      t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: ORIGIN } }),
    ]);
    expect(responses.map((res) => res.statusCode)).toEqual([200, 401, 404, 200, 200, 200]);
    for (const res of responses) expect(corsHeaders(res)).toEqual([]);
  });
});

describe('without ADMIN_TOKEN', () => {
  it('answers an admin preflight 404, like every admin path', async () => {
    const bare = await createTestApp({ ADMIN_TOKEN: '' });
    try {
      const res = await bare.app.inject({ method: 'OPTIONS', url: '/admin/v1/shops', headers: preflight('POST') });
      expect(res.statusCode).toBe(404);
      expect(corsHeaders(res)).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
