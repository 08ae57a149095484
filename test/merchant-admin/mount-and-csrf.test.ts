/**
 * The merchant admin's mount (CONTRACT "Merchant admin", docs/merchant-admin.md) with a signed-in
 * session: CSRF on cookie sessions (token, origin, another session's token), the same handlers
 * for the session's shop only, no operator route, and 401 without a session on every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { ORIGIN, openSignInApp, signInHelpers } from './sign-in-fixtures.ts';
import type { DomainShop } from './sign-in-fixtures.ts';

const clock = Date.now();
let t: TestApp;
let shopA: DomainShop;
let shopB: DomainShop;
const { signIn, tokenFor } = signInHelpers(() => t, () => clock);

beforeAll(async () => {
  ({ t, shopA, shopB } = await openSignInApp(() => clock));
});
afterAll(() => t.close());

describe('CSRF on cookie sessions', () => {
  it('403 without the token, with a wrong one, or from another site even with it; same site with it passes', async () => {
    const { cookie, csrf } = await signIn(shopA.id);
    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/app/api/v1/api-keys', headers: { cookie, ...headers }, payload: { name: 'k' } });
    const refused: Array<[Record<string, string>, string]> = [
      [{ origin: ORIGIN }, 'Missing or wrong CSRF token'],
      [{ origin: ORIGIN, 'x-csrf-token': 'x'.repeat(43) }, 'Missing or wrong CSRF token'],
      [{ origin: 'https://evil.example', 'x-csrf-token': csrf }, 'Cross-site request refused'],
      [{ 'sec-fetch-site': 'cross-site', 'x-csrf-token': csrf }, 'Cross-site request refused'],
      [{ 'sec-fetch-site': 'same-site', 'x-csrf-token': csrf }, 'Cross-site request refused'],
    ];
    for (const [headers, error] of refused) {
      const res = await post(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ error, code: 'forbidden' });
    }
    const keys = await t.app.inject({ method: 'GET', url: '/app/api/v1/api-keys', headers: { cookie } });
    expect((keys.json() as { apiKeys: Array<{ name: string }> }).apiKeys.map((k) => k.name)).not.toContain('k');

    const ok = await post({ origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-csrf-token': csrf });
    expect(ok.statusCode).toBe(201);
  });

  it("another session's token does not pass", async () => {
    const first = await signIn(shopA.id);
    const second = await signIn(shopA.id);
    const res = await t.app.inject({ method: 'POST', url: '/app/api/v1/api-keys', headers: { cookie: first.cookie, 'x-csrf-token': second.csrf }, payload: {} });
    expect(res.statusCode).toBe(403);
  });
});

describe('the mount', () => {
  it("reaches the same handlers for the session's shop only", async () => {
    const { cookie } = await signIn(shopA.id);
    const list = await t.app.inject({ method: 'GET', url: '/app/api/v1/campaigns', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ campaigns: [], meta: { total: 0 } });
    expect(list.headers['ratelimit-policy']).toBeDefined();

    const bCampaigns = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopB.id}/campaigns` });
    const bId = (bCampaigns.json() as { campaigns: Array<{ id: string }> }).campaigns[0]?.id ?? '';
    expect(bId).toMatch(/^cmp_/);
    const read = await t.app.inject({ method: 'GET', url: `/app/api/v1/campaigns/${bId}`, headers: { cookie } });
    expect(read.statusCode).toBe(404);
    // A session token of shop A with shop B's id anywhere else still reads A.
    const viaToken = await t.app.inject({ method: 'GET', url: `/app/api/v1/campaigns/${bId}`, headers: { authorization: `Bearer ${tokenFor(shopA.domain)}` } });
    expect(viaToken.statusCode).toBe(404);
  });

  it('opens no operator route: shops, orders, login links, the platform access token, plan or cap changes', async () => {
    const { cookie, csrf } = await signIn(shopA.id);
    const headers = { cookie, 'x-csrf-token': csrf, origin: ORIGIN };
    for (const [method, url] of [
      ['POST', '/app/api/v1/shops'],
      ['POST', '/app/api/v1/orders'],
      ['POST', '/app/api/v1/login-links'],
      ['GET', `/app/api/v1/shops/${shopB.id}`],
      ['GET', `/app/api/v1/shops/${shopB.id}/campaigns`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // The merchant may read the connection (GET), not set or drop the token: 405 names GET alone.
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/app/api/v1/platform-connection', headers, payload: { accessToken: 'shpat_x' } });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET');
    }
    for (const payload of [{ plan: 'scale' }, { limits: { campaigns: 1000 } }]) {
      const res = await t.app.inject({ method: 'PATCH', url: '/app/api/v1', headers, payload });
      expect(res.statusCode).toBe(403);
    }
    const shop = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopA.id}` });
    expect(shop.json()).toMatchObject({ shop: { plan: 'free' } });
    const settings = await t.app.inject({ method: 'PATCH', url: '/app/api/v1', headers, payload: { timezone: 'Europe/Paris' } });
    expect(settings.statusCode).toBe(200);
  });

  it('401 without a session on every route of the mount', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/app/api/v1/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = (doc.json() as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths)).toContain('/app/api/v1/session');
    expect(Object.keys(paths)).toContain('/app/api/v1/api-keys');
    expect(Object.keys(paths).some((path) => path.includes('orders') || path.includes('login-links') || path.includes('/shops'))).toBe(false);
    expect(Object.keys(paths['/app/api/v1/platform-connection'] ?? {})).toEqual(['get']);
    let count = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const method of Object.keys(operations)) {
        const url = path.replace(/\{[A-Za-z]+\}/g, 'cmp_doesnotexist0000');
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers: { cookie: 'gcrs_admin_session=gcs_nope' } });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(30);
  });
});
