/**
 * GET …/shop-locales (docs/merchant-admin.md "The shop's languages") on the merchant's mount and
 * the operator's, against the stand-in platform: the published languages, the primary first,
 * read with the shop's own token; none for a shop without a connection (with or without the
 * platform configured); every platform failure a clear 409/429, never a 5xx; one shop's session
 * never reading another's. PGlite and PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { signSessionToken } from '../../src/merchant-admin/session-token.ts';
import { SHOP_LOCALES_QUERY } from '../../src/platform/admin-documents.ts';
import { connectShop } from '../../src/platform/connections.ts';
import { SHOP_LOCALES_TIMEOUT_MS } from '../../src/platform/shop-locales.ts';
import { openLoginLink } from '../support/login-link.ts';
import { startTestPlatform } from '../support/platform-standin.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const SECRET = 'shop-locales-test-secret';
const APP_KEY = 'shop-locales-app-key';

let t: TestApp;
let platform: PlatformStandin;
beforeAll(async () => {
  platform = await startTestPlatform(SECRET, APP_KEY);
  t = await createTestApp({ PLATFORM_APP_SECRET: SECRET, PLATFORM_APP_KEY: APP_KEY, PLATFORM_ADMIN_API_URL: platform.url });
});
afterAll(async () => {
  await t?.close();
  await platform?.close();
});

type Shop = { id: string; domain: string; token: string };

/** A shop known to the stand-in with `locales` (English only when absent), connected unless said. */
async function shop(locales?: Array<[locale: string, primary: boolean, published: boolean]>, connected = true): Promise<Shop> {
  const domain = `locales-${randomBytes(5).toString('hex')}.myshopify.com`;
  const created = await t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain, plan: 'growth' } });
  const id = (created.json() as { shop: { id: string } }).shop.id;
  const token = `shpat_${randomBytes(16).toString('hex')}`;
  platform.addShop({ domain, accessTokens: new Set([token]) });
  if (locales) platform.locales.locales.set(domain, locales.map(([locale, primary, published]) => ({ locale, primary, published })));
  if (connected) expect((await t.admin({ method: 'PUT', url: `/admin/v1/shops/${id}/platform-connection`, payload: { accessToken: token } })).statusCode).toBe(200);
  return { id, domain, token };
}

function bearer(domain: string, secret = SECRET): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  return { authorization: `Bearer ${signSessionToken({ iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: APP_KEY, sub: '42', exp: now + 60, nbf: now - 1, iat: now - 1 }, secret)}` };
}

const asMerchant = (s: Shop) => t.app.inject({ method: 'GET', url: '/app/api/v1/shop-locales', headers: bearer(s.domain) });
const sentFor = (s: Shop) => platform.requests.filter((r) => r.token === s.token && r.query === SHOP_LOCALES_QUERY);

describe('the shop\'s published languages', () => {
  it('answers the published ones, the primary first, read with the shop\'s own token', async () => {
    const s = await shop([['fr', false, true], ['en', true, true], ['de', false, false], ['pt-BR', false, true]]);
    const res = await asMerchant(s);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ locales: [{ locale: 'en', primary: true }, { locale: 'fr', primary: false }, { locale: 'pt-BR', primary: false }] });
    expect(sentFor(s)).toHaveLength(1);
    // Not cached: a language published since is offered at the next read.
    platform.locales.locales.get(s.domain)?.push({ locale: 'it', primary: false, published: true });
    expect(((await asMerchant(s)).json() as { locales: unknown[] }).locales).toContainEqual({ locale: 'it', primary: false });
    expect(sentFor(s)).toHaveLength(2);
  });

  it('is the same handler on the operator\'s mount', async () => {
    const s = await shop([['en', true, true], ['ja', false, true]]);
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/shop-locales` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ locales: [{ locale: 'en', primary: true }, { locale: 'ja', primary: false }] });
  });

  it('a cookie session reads its own shop\'s', async () => {
    const s = await shop([['en', true, true], ['es', false, true]]);
    const link = (await t.admin({ method: 'POST', url: `/admin/v1/shops/${s.id}/login-links` })).json() as { url: string };
    const signed = await openLoginLink(t.app, new URL(link.url).pathname + new URL(link.url).search);
    const cookie = String(signed.headers['set-cookie']).split(';')[0] ?? '';
    const res = await t.app.inject({ method: 'GET', url: '/app/api/v1/shop-locales', headers: { cookie } });
    expect(res.json()).toEqual({ locales: [{ locale: 'en', primary: true }, { locale: 'es', primary: false }] });
  });

  it('a shop without a platform connection has none, and the platform is not asked', async () => {
    const s = await shop([['en', true, true], ['fr', false, true]], false);
    const before = platform.requests.length;
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/shop-locales` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ locales: [] });
    expect(platform.requests.length).toBe(before);
  });

  it('a self-hosted service (no platform configured) answers none too', async () => {
    const own = await createTestApp();
    try {
      const s = await own.createShop('free');
      const res = await own.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/shop-locales` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ locales: [] });
    } finally {
      await own.close();
    }
  });
});

describe('platform failures: a clear 4xx, never a 5xx', () => {
  it('throttled: 429 with Retry-After', async () => {
    const s = await shop();
    platform.locales.faults.inject({ kind: 'throttled', retryAfterSeconds: 3 });
    const res = await asMerchant(s);
    expect(res.statusCode, res.body).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.json()).toMatchObject({ error: 'Rate limit exceeded', issue: expect.stringContaining('try again in 3 s') });
  });

  it.each([
    ['an outage', { kind: 'outage', status: 503 } as const, 'The platform did not answer with the shop\'s languages'],
    ['an errors array', { kind: 'errors', message: 'Internal error' } as const, 'The platform did not answer with the shop\'s languages'],
    ['an answer missing a selected field', { kind: 'missing', path: ['shopLocales'] } as const, 'The platform did not answer with the shop\'s languages'],
    [
      'the app without read_locales (installed before it was asked)',
      { kind: 'errors', code: 'ACCESS_DENIED', message: 'Access denied for shopLocales field. Required access: `read_locales` access scope or `read_markets_home` access scope.' } as const,
      'The app may not read the shop\'s languages',
    ],
  ])('%s: 409', async (_name, fault, error) => {
    const s = await shop();
    platform.locales.faults.inject(fault);
    const res = await asMerchant(s);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ error, issue: expect.any(String) });
    // The next read, the platform well again, answers.
    expect((await asMerchant(s)).json()).toEqual({ locales: [{ locale: 'en', primary: true }] });
  });

  it('no answer within the timeout: 409, the merchant not kept waiting', async () => {
    const s = await shop();
    const answer = platform.locales.family.answer;
    platform.locales.family.answer = (call) => new Promise((resolve) => setTimeout(() => resolve(answer(call)), SHOP_LOCALES_TIMEOUT_MS + 2000));
    try {
      const started = Date.now();
      const res = await asMerchant(s);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ error: 'The platform did not answer with the shop\'s languages' });
      expect(Date.now() - started).toBeLessThan(SHOP_LOCALES_TIMEOUT_MS + 1500);
    } finally {
      platform.locales.family.answer = answer;
    }
  }, 20_000);

  it('a revoked token: 409, and the connection is marked broken', async () => {
    const s = await shop();
    platform.shopByToken(s.token)?.accessTokens.delete(s.token);
    const res = await asMerchant(s);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop\'s platform connection is broken' });
    const connection = await t.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/platform-connection` });
    expect(connection.json()).toMatchObject({ connected: true, broken: true });
  });

  it('a token sealed under another secret: 409, the platform not asked', async () => {
    const s = await shop(undefined, false);
    await connectShop(t.ctx.db, 'another-secret', s.id, s.token);
    const before = platform.requests.length;
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/shop-locales` });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop\'s platform connection is broken', issue: expect.stringContaining('PLATFORM_APP_SECRET') });
    expect(platform.requests.length).toBe(before);
  });
});

describe('one shop\'s session, one shop\'s languages', () => {
  it('each session reads its own shop; another shop\'s path, no session or a forged token is 401', async () => {
    const a = await shop([['en', true, true], ['fr', false, true]]);
    const b = await shop([['de', true, true], ['nl', false, true]]);
    expect((await asMerchant(a)).json()).toEqual({ locales: [{ locale: 'en', primary: true }, { locale: 'fr', primary: false }] });
    expect((await asMerchant(b)).json()).toEqual({ locales: [{ locale: 'de', primary: true }, { locale: 'nl', primary: false }] });
    expect(sentFor(a).every((r) => r.token === a.token)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${b.id}/shop-locales`, headers: bearer(a.domain) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/shop-locales' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/shop-locales', headers: bearer(a.domain, 'a-forger-s-secret') })).statusCode).toBe(401);
  });
});
