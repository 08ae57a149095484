/**
 * The merchant admin's sign-in (CONTRACT "Merchant admin", docs/merchant-admin.md), through the
 * app: the platform's session token, one-time login links, cookie flags, session ends, and logs
 * that never carry a credential. CSRF and what the mount opens are in mount-and-csrf.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LINK_TTL_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/merchant-admin/sessions.ts';
import { errorBody } from '../support/error-body.ts';
import { openLoginLink, submitLoginLink } from '../support/login-link.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { APP_KEY, APP_SECRET, ORIGIN, openSignInApp, signInHelpers } from './sign-in-fixtures.ts';
import type { DomainShop } from './sign-in-fixtures.ts';

let clock = Date.now();
let t: TestApp;
let shopA: DomainShop;
const { loginLink, signIn, nowS, tokenFor } = signInHelpers(() => t, () => clock);

beforeAll(async () => {
  ({ t, shopA } = await openSignInApp(() => clock));
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
