/**
 * CONTRACT "Storefront": storefront routes are limited per shop and per client
 * (`X-Forwarded-For` first hop, else the socket address), 429 as SPEC. Scaled down to 6 a
 * minute here; runs on the memory window and, with TEST_REDIS_URL, on Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { APP_SECRET, createDomainShop, createToken, proxied } from './helpers.ts';
import type { StorefrontShop } from './helpers.ts';

const LIMIT = 6;
const ORIGIN = 'https://shop.example.com';

let t: TestApp;
let shop: StorefrontShop;
let other: StorefrontShop;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: APP_SECRET, RATE_LIMIT_SCALE: String(LIMIT / 120) });
  [shop, other] = await Promise.all([createDomainShop(t, 'growth'), createDomainShop(t, 'growth')]);
  token = (await createToken(t, shop.id, [ORIGIN])).token;
});
afterAll(() => t.close());

// Unique per run, so a shared Redis keeps no window of an earlier run.
const client = (n: number) => `203.0.113.${n}, 10.0.0.${process.pid % 250}`;

describe('storefront rate limit', () => {
  it('answers 429 with Retry-After to a flooding client of the proxy; another client of the shop still passes', async () => {
    const flooder = { 'x-forwarded-for': client(1) };
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await proxied(t, shop, 'rules', { headers: flooder });
      expect(res.statusCode, `request ${i}`).toBe(200);
    }
    const refused = await proxied(t, shop, 'rules', { headers: flooder });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(errorBody('Rate limit exceeded', 'rate_limited'));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toBe(`"storefront";q=${LIMIT};w=60`);
    // Events share the window: the flooder is refused there too.
    expect((await proxied(t, shop, 'events', { method: 'POST', payload: { events: [] }, headers: flooder })).statusCode).toBe(429);

    expect((await proxied(t, shop, 'rules', { headers: { 'x-forwarded-for': client(2) } })).statusCode).toBe(200);
    // The same client in another shop has a window of its own.
    expect((await proxied(t, other, 'rules', { headers: flooder })).statusCode).toBe(200);
  });

  it('counts token requests per client too, and the allowed page can read its 429', async () => {
    const headers = { 'x-storefront-token': token, origin: ORIGIN, 'x-forwarded-for': client(3) };
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers })).statusCode).toBe(200);
    }
    const refused = await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
    const neighbour = await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers: { ...headers, 'x-forwarded-for': client(4) } });
    expect(neighbour.statusCode).toBe(200);
  });

  it('never counts refused credentials against the shop: bad signatures and bad tokens leave the window alone', async () => {
    const headers = { 'x-forwarded-for': client(5) };
    for (let i = 0; i < LIMIT * 2; i += 1) {
      expect((await proxied(t, shop, 'rules', { headers, secret: 'wrong' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers: { ...headers, 'x-storefront-token': `${token}x` } })).statusCode).toBe(401);
    }
    expect((await proxied(t, shop, 'rules', { headers })).statusCode).toBe(200);
  });

  it('uses the socket address when there is no X-Forwarded-For', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers: { 'x-storefront-token': token }, remoteAddress: '192.0.2.77' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.ratelimit).toBe(`"storefront";r=${LIMIT - 1};t=60`);
  });
});
