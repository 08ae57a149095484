/**
 * The merchant admin's sign-in and mount (CONTRACT "Merchant admin", docs/merchant-admin.md),
 * through the app: the platform's session token, one-time login links, cookie flags, CSRF,
 * cross-shop isolation, and what the mount does not open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSessionToken } from '../../src/merchant-admin/session-token.ts';
import { LOGIN_LINK_TTL_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/merchant-admin/sessions.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { errorBody } from '../support/error-body.ts';
import { openLoginLink, submitLoginLink } from '../support/login-link.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const APP_KEY = 'test-app-key';
const APP_SECRET = 'test-app-secret-0123456789';
const ORIGIN = 'http://localhost:3000';

let clock = Date.now();
let t: TestApp;
let shopA: TestShop & { domain: string };
let shopB: TestShop & { domain: string };

async function shopWithDomain(plan: 'free' | 'scale'): Promise<TestShop & { domain: string }> {
  const shop = await t.createShop(plan);
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` });
  return { ...shop, domain: (res.json() as { shop: { domain: string } }).shop.domain };
}

async function loginLink(shopId: string): Promise<string> {
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/login-links` });
  expect(res.statusCode).toBe(201);
  const { url } = res.json() as { url: string };
  return new URL(url).pathname + new URL(url).search;
}

/** Opens a cookie session of `shopId`: its cookie header and CSRF token. */
async function signIn(shopId: string): Promise<{ cookie: string; csrf: string }> {
  const res = await openLoginLink(t.app, await loginLink(shopId));
  expect(res.statusCode).toBe(303);
  const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
  const session = await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } });
  expect(session.statusCode).toBe(200);
  return { cookie, csrf: (session.json() as { csrfToken: string }).csrfToken };
}

const nowS = () => Math.floor(clock / 1000);
const tokenFor = (domain: string, overrides: Record<string, unknown> = {}, secret = APP_SECRET) =>
  signSessionToken({ iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: APP_KEY, sub: '42', exp: nowS() + 60, nbf: nowS() - 1, iat: nowS() - 1, ...overrides }, secret);

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_KEY: APP_KEY, PLATFORM_APP_SECRET: APP_SECRET }, { now: () => new Date(clock) });
  shopA = await shopWithDomain('free');
  shopB = await shopWithDomain('scale');
  await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopB.id}/campaigns/import`, payload: { campaigns: [campaign('b-only', { rules: [rule('x')] })] } });
});
afterAll(() => t.close());

describe('session token (embedded)', () => {
  const get = (token: string) => t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { authorization: `Bearer ${token}` } });

  it('a valid token opens the shop its dest names, on any plan', async () => {
    const res = await get(tokenFor(shopA.domain));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ shop: { id: shopA.id }, via: 'session-token' });
    expect(res.json().csrfToken).toBeUndefined();
  });

  it('401 for a forged, expired, not-yet-valid, wrong-audience or wrong-dest token; 5 s of leeway both ways', async () => {
    const refused = [
      tokenFor(shopA.domain, {}, 'another-secret'),
      tokenFor(shopA.domain, { exp: nowS() - 6 }),
      tokenFor(shopA.domain, { nbf: nowS() + 6 }),
      tokenFor(shopA.domain, { aud: 'another-app' }),
      tokenFor(shopA.domain, { dest: 'https://unknown-shop.example.com' }),
      tokenFor(shopA.domain, { dest: `http://${shopA.domain}` }),
      tokenFor(shopA.domain, { exp: undefined }),
      // alg none: the signature part is empty.
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${tokenFor(shopA.domain).split('.')[1]}.`,
      t.config.adminToken ?? '',
      shopA.key,
    ];
    for (const token of refused) {
      const res = await get(token);
      expect(res.statusCode, token).toBe(401);
      expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    }
    expect((await get(tokenFor(shopA.domain, { exp: nowS() - 4 }))).statusCode).toBe(200);
    expect((await get(tokenFor(shopA.domain, { nbf: nowS() + 4 }))).statusCode).toBe(200);
  });

  it('needs no CSRF token: a state-changing call works with the bearer alone', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/v1/api-keys',
      headers: { authorization: `Bearer ${tokenFor(shopA.domain)}`, origin: 'https://admin.shopify.com' },
      payload: { name: 'embedded' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('without PLATFORM_APP_KEY/SECRET no token is accepted', async () => {
    const bare = await createTestApp({}, { database: undefined });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { authorization: `Bearer ${tokenFor('x.example.com')}` } });
      expect(res.statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });
});

describe('login links', () => {
  it('opening it spends nothing: its page carries the token in a form that submits itself, framed by no one, and opening it twice is the same', async () => {
    const url = await loginLink(shopA.id);
    const token = new URL(url, 'http://x').searchParams.get('token') ?? '';
    for (let i = 0; i < 2; i += 1) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none';");
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.body).toContain('<form method="post" action="/app/login">');
      expect(page.body).toContain(`name="token" value="${token}"`);
      expect(page.body).toContain('document.forms[0].submit()');
    }
    // Still usable after being opened (a link preview fetched it, say).
    expect((await submitLoginLink(t.app, token)).statusCode).toBe(303);
  });

  it('its form opens a session in an HttpOnly SameSite=Lax cookie and redirects to /app/; the link is refused the second time', async () => {
    const url = await loginLink(shopA.id);
    expect(url).toMatch(/^\/app\/login\?token=gcl_/);
    const res = await openLoginLink(t.app, url);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/app/');
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^gcrs_admin_session=gcs_[0-9A-Za-z]{16}_[0-9A-Za-z]{32}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/app');
    expect(cookie).not.toContain('Secure');

    for (const again of [await t.app.inject({ method: 'GET', url }), await submitLoginLink(t.app, new URL(url, 'http://x').searchParams.get('token') ?? '')]) {
      expect(again.statusCode).toBe(410);
      expect(again.headers['content-type']).toContain('text/html');
      expect(again.body).toContain('already used');
      expect(again.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is refused after 15 minutes, and a made-up token is refused', async () => {
    const url = await loginLink(shopA.id);
    clock += LOGIN_LINK_TTL_MS + 1000;
    try {
      for (const res of [await t.app.inject({ method: 'GET', url }), await submitLoginLink(t.app, new URL(url, 'http://x').searchParams.get('token') ?? '')]) {
        expect(res.statusCode).toBe(410);
        expect(res.body).toContain('expired');
      }
    } finally {
      clock -= LOGIN_LINK_TTL_MS + 1000;
    }
    for (const token of ['', 'gcl_nope', `gcl_${shopA.id.slice(4)}_${'a'.repeat(32)}`]) {
      for (const res of [await t.app.inject({ method: 'GET', url: `/app/login?token=${token}` }), await submitLoginLink(t.app, token)]) {
        expect(res.statusCode, token).toBe(400);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
  });

  it('of concurrent uses of one link exactly one signs in', async () => {
    const url = await loginLink(shopA.id);
    const token = new URL(url, 'http://x').searchParams.get('token') ?? '';
    const answers = await Promise.all(Array.from({ length: 8 }, () => submitLoginLink(t.app, token)));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([303, 410, 410, 410, 410, 410, 410, 410]);
  });

  it('sets Secure when the public URL is https', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://gifts.example.com/' });
    try {
      const shop = await https.createShop('free');
      const link = await https.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/login-links` });
      const { url } = link.json() as { url: string };
      expect(url).toMatch(/^https:\/\/gifts\.example\.com\/app\/login\?token=gcl_/);
      const res = await openLoginLink(https.app, url);
      expect(String(res.headers['set-cookie'])).toContain('; Secure');
    } finally {
      await https.close();
    }
  });

  it('a session ends at logout and after 12 h idle', async () => {
    const { cookie, csrf } = await signIn(shopA.id);
    const out = await t.app.inject({ method: 'DELETE', url: '/app/api/v1/session', headers: { cookie, 'x-csrf-token': csrf, origin: ORIGIN } });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } })).statusCode).toBe(401);

    const idle = await signIn(shopA.id);
    clock += SESSION_IDLE_MS + 1000;
    try {
      expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie: idle.cookie } })).statusCode).toBe(401);
    } finally {
      clock -= SESSION_IDLE_MS + 1000;
    }
  });

  it('a session in daily use still ends 7 days after sign-in', async () => {
    const { cookie } = await signIn(shopA.id);
    const start = clock;
    const step = SESSION_IDLE_MS - 60 * 60_000;
    try {
      while (clock + step < start + SESSION_ABSOLUTE_MS) {
        clock += step;
        expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } })).statusCode).toBe(200);
      }
      clock = start + SESSION_ABSOLUTE_MS + 1000;
      expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } })).statusCode).toBe(401);
    } finally {
      clock = start;
    }
  });
});

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

describe('logs', () => {
  it('never carry a login link, a session cookie or a session token, even at trace level', async () => {
    const lines: string[] = [];
    const traced = await createTestApp(
      { LOG_LEVEL: 'trace', PLATFORM_APP_KEY: APP_KEY, PLATFORM_APP_SECRET: APP_SECRET },
      { logDestination: { write: (chunk: string) => void lines.push(chunk) } },
    );
    try {
      const shop = await traced.createShop('free');
      const link = await traced.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/login-links` });
      const url = new URL((link.json() as { url: string }).url);
      const token = url.searchParams.get('token') ?? '';
      const opened = await openLoginLink(traced.app, url.href);
      const cookie = String(opened.headers['set-cookie']).split(';')[0] ?? '';
      await traced.app.inject({ method: 'GET', url: url.pathname + url.search });
      await submitLoginLink(traced.app, token);
      await traced.app.inject({ method: 'POST', url: '/app/api/v1/api-keys', headers: { cookie }, payload: {} });
      const domain = (await traced.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` })).json().shop.domain as string;
      const jwt = tokenFor(domain);
      await traced.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { authorization: `Bearer ${jwt}` } });
      const log = lines.join('');
      expect(log).toContain('/app/login?token=gcl_');
      for (const secret of [token, token.slice(-32), cookie.split('=')[1] ?? 'x', jwt, jwt.split('.')[2] ?? 'x']) {
        expect(secret.length).toBeGreaterThan(20);
        expect(log).not.toContain(secret);
      }
    } finally {
      await traced.close();
    }
  });
});
