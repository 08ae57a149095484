/**
 * Shared setup of the merchant admin sign-in tests (sign-in.test.ts, mount-and-csrf.test.ts):
 * the app with the platform's key and secret on a settable clock, shop A (free, no campaigns)
 * and shop B (scale, one campaign), login links, cookie sessions and session tokens.
 */
import { expect } from 'vitest';
import { signSessionToken } from '../../src/merchant-admin/session-token.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { openLoginLink } from '../support/login-link.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

export const APP_KEY = 'test-app-key';
export const APP_SECRET = 'test-app-secret-0123456789';
export const ORIGIN = 'http://localhost:3000';

export type DomainShop = TestShop & { domain: string };

async function shopWithDomain(t: TestApp, plan: 'free' | 'scale'): Promise<DomainShop> {
  const shop = await t.createShop(plan);
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` });
  return { ...shop, domain: (res.json() as { shop: { domain: string } }).shop.domain };
}

/** The app on the clock `now()` (ms) reads, with shop A (free) and shop B (scale, one campaign). */
export async function openSignInApp(now: () => number): Promise<{ t: TestApp; shopA: DomainShop; shopB: DomainShop }> {
  const t = await createTestApp({ PLATFORM_APP_KEY: APP_KEY, PLATFORM_APP_SECRET: APP_SECRET }, { now: () => new Date(now()) });
  const shopA = await shopWithDomain(t, 'free');
  const shopB = await shopWithDomain(t, 'scale');
  await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopB.id}/campaigns/import`, payload: { campaigns: [campaign('b-only', { rules: [rule('x')] })] } });
  return { t, shopA, shopB };
}

/** Sign-in steps over the app `app()` returns (it is opened in a beforeAll) and the clock `now()`. */
export function signInHelpers(app: () => TestApp, now: () => number) {
  async function loginLink(shopId: string): Promise<string> {
    const res = await app().admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/login-links` });
    expect(res.statusCode).toBe(201);
    const { url } = res.json() as { url: string };
    return new URL(url).pathname + new URL(url).search;
  }

  /** Opens a cookie session of `shopId`: its cookie header and CSRF token. */
  async function signIn(shopId: string): Promise<{ cookie: string; csrf: string }> {
    const res = await openLoginLink(app().app, await loginLink(shopId));
    expect(res.statusCode).toBe(303);
    const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
    const session = await app().app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    return { cookie, csrf: (session.json() as { csrfToken: string }).csrfToken };
  }

  const nowS = () => Math.floor(now() / 1000);
  const tokenFor = (domain: string, overrides: Record<string, unknown> = {}, secret = APP_SECRET) =>
    signSessionToken({ iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: APP_KEY, sub: '42', exp: nowS() + 60, nbf: nowS() - 1, iat: nowS() - 1, ...overrides }, secret);

  return { loginLink, signIn, nowS, tokenFor };
}
