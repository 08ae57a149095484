/**
 * The shared security suite of the storefront routes (STYLE "Tests"), built from their route
 * table so a route added later is covered: on `/proxy`, a missing, wrong or stale signature
 * is 401 and an unknown shop 404; on `/storefront/v1`, a missing, unknown or revoked token
 * and an API key are 401, a wrong origin 403; no answer reaches a shop's data, and a token
 * never opens `/api/v1` or the admin API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAppProxyQuery } from '../../src/platform/signatures.ts';
import { publicShopRoutes } from '../../src/routes.ts';
import { storefrontRoutes } from '../../src/storefront/routes.ts';
import { APP_SECRET, createDomainShop, createToken } from '../storefront/helpers.ts';
import type { StorefrontShop } from '../storefront/helpers.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
let shop: StorefrontShop;
let token: string;
let revokedToken: string;

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: APP_SECRET });
  shop = await createDomainShop(t, 'free');
  token = (await createToken(t, shop.id, ['https://shop.example.com'])).token;
  const revoked = await createToken(t, shop.id, ['https://shop.example.com']);
  await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/storefront-tokens/${revoked.storefrontToken.id}` });
  revokedToken = revoked.token;
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);
const routes = () => storefrontRoutes(t.ctx);

describe('every storefront route', () => {
  it('has routes to check', () => {
    expect(routes().proxy.length).toBeGreaterThanOrEqual(3);
    expect(routes().token.length).toBeGreaterThanOrEqual(2);
  });

  it('on /proxy: 401 for a missing, wrong, stale or future signature; 404 for an unknown shop', async () => {
    for (const route of routes().proxy) {
      const queries = [
        `shop=${shop.domain}&timestamp=${now()}`,
        signAppProxyQuery('', { shop: shop.domain }, 'another-secret'),
        signAppProxyQuery('', { shop: shop.domain, timestamp: now() - 3600 }, APP_SECRET),
        signAppProxyQuery('', { shop: shop.domain, timestamp: now() + 3600 }, APP_SECRET),
      ];
      for (const query of queries) {
        const res = await t.app.inject({ method: route.method, url: `/proxy${route.path}?${query}`, payload: route.method === 'POST' ? {} : undefined });
        expect(res.statusCode, `${route.method} ${route.path} ${query}`).toBe(401);
        expect(res.json()).toMatchObject(errorBody('Unauthorized', 'unauthorized'));
      }
      const unknown = signAppProxyQuery('', { shop: 'nobody.myshopify.com' }, APP_SECRET);
      const res = await t.app.inject({ method: route.method, url: `/proxy${route.path}?${unknown}` });
      expect(res.statusCode).toBe(404);
    }
  });

  it('on /storefront/v1: 401 without a live token (an API key is not one), 403 from an origin the token does not allow', async () => {
    const scale = await t.createShop('scale');
    for (const route of routes().token) {
      const url = `/storefront/v1${route.path}`;
      for (const headers of [{}, { 'x-storefront-token': revokedToken }, { 'x-storefront-token': scale.key }, { authorization: `Bearer ${scale.key}` }]) {
        const res = await t.app.inject({ method: route.method, url, headers });
        expect(res.statusCode, `${route.method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
      }
      const res = await t.app.inject({ method: route.method, url, headers: { 'x-storefront-token': token, origin: 'https://elsewhere.example' } });
      expect(res.statusCode).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('a storefront token opens no public or admin route', async () => {
    for (const route of publicShopRoutes(t.ctx)) {
      const path = route.path.replace(/:([A-Za-z]+)/g, 'cmp_doesnotexist0000');
      for (const headers of [{ 'x-storefront-token': token }, { authorization: `Bearer ${token}` }]) {
        expect((await t.app.inject({ method: route.method, url: `/api/v1${path}`, headers })).statusCode).toBe(401);
        expect((await t.app.inject({ method: route.method, url: `/admin/v1/shops/${shop.id}${path}`, headers })).statusCode).toBe(401);
      }
    }
  });
});
