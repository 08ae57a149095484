/**
 * "A clear 4xx with a JSON error for every bad input; never a 5xx": random JSON bodies and
 * query strings thrown at every public route (and its admin mount) and every admin-only route
 * never get a 5xx, and
 * every error answer is a JSON object with an `error` string.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnlyRoutes } from '../../src/admin-routes.ts';
import { publicShopRoutes } from '../../src/routes.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let shop: TestShop;
let campaignId: string;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SCALE: '1000' });
  shop = await t.createShop('scale');
  const res = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name: 'fuzz target' }] } });
  campaignId = (res.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
});
afterAll(() => t.close());

const queryValue = fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('', '0', '-1', 'true', 'null', '2026-02-30', '%00'));

describe('bad input never yields a 5xx', () => {
  it('holds for random bodies and queries on every route', async () => {
    const routes = publicShopRoutes(t.ctx);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.jsonValue({ maxDepth: 4 }),
        fc.dictionary(fc.constantFrom('page', 'perPage', 'enabled', 'from', 'to', 'customerId', 'campaignId', 'force'), queryValue),
        fc.boolean(),
        async (route, body, query, viaAdmin) => {
          const path = route.path.replace(/:[A-Za-z]+/g, campaignId);
          const url = viaAdmin ? `/admin/v1/shops/${shop.id}${path}` : `/api/v1${path}`;
          const withBody = route.method !== 'GET' && route.method !== 'DELETE';
          const options = {
            method: route.method,
            url,
            query,
            ...(withBody ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) } : {}),
          };
          const res = viaAdmin ? await t.admin(options) : await t.api(shop, options);
          expect(res.statusCode, `${route.method} ${url} ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(typeof (res.json() as { error?: unknown }).error).toBe('string');
          }
        },
      ),
      { numRuns: 250 },
    );
  }, 120_000);

  it('holds for random bodies and queries on every admin-only route', async () => {
    const routes = adminOnlyRoutes(t.ctx);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.jsonValue({ maxDepth: 4 }),
        fc.dictionary(fc.constantFrom('status', 'limit', 'force'), queryValue),
        async (route, body, query) => {
          const path = route.path.replace(/:[A-Za-z]+/g, campaignId);
          const url = route.scope === 'shop' ? `/admin/v1/shops/${shop.id}${path}` : `/admin/v1${path}`;
          const withBody = route.method !== 'GET' && route.method !== 'DELETE';
          const res = await t.admin({
            method: route.method,
            url,
            query,
            ...(withBody ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) } : {}),
          });
          expect(res.statusCode, `${route.method} ${url} ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(typeof (res.json() as { error?: unknown }).error).toBe('string');
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
