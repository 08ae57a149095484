/**
 * The shared security suite (STYLE "Tests"): every public route, whoever added it, answers
 * a missing, malformed, unknown or revoked key with SPEC's 401 body, a non-Scale shop with
 * SPEC's 403 body, and is reachable on the admin mount only with the admin token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicShopRoutes } from '../../src/routes.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const t: { app?: TestApp } = {};
let scale: TestShop;
let pro: TestShop;
let revokedKey: string;

beforeAll(async () => {
  t.app = await createTestApp();
  scale = await t.app.createShop('scale');
  pro = await t.app.createShop('pro');
  const created = await t.app.admin({ method: 'POST', url: `/admin/v1/shops/${scale.id}/api-keys`, payload: {} });
  const { apiKey, key } = created.json() as { apiKey: { id: string }; key: string };
  await t.app.admin({ method: 'DELETE', url: `/admin/v1/shops/${scale.id}/api-keys/${apiKey.id}` });
  revokedKey = key;
});
afterAll(() => t.app?.close());

const app = () => {
  if (!t.app) throw new Error('app not started');
  return t.app;
};

// Built from the route table itself, so a route added later is covered without editing this file.
const routes = () =>
  publicShopRoutes(app().ctx).map((route) => ({
    method: route.method,
    url: `/api/v1${route.path.replace(/:([A-Za-z]+)/g, 'cmp_doesnotexist0000')}`,
    adminUrl: (shopId: string) => `/admin/v1/shops/${shopId}${route.path.replace(/:([A-Za-z]+)/g, 'cmp_doesnotexist0000')}`,
  }));

describe('every public route', () => {
  it('has routes to check', () => {
    expect(routes().length).toBeGreaterThanOrEqual(5);
  });

  it('answers 401 { error: "Unauthorized" } without a usable key', async () => {
    const badHeaders: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic abc' },
      { authorization: 'Bearer gcr_nope' },
      { authorization: `Bearer ${scale.key}x` },
      // The last character changed to a different one: a key of the right shape that is not the key.
      { authorization: `Bearer ${scale.key.slice(0, -1)}${scale.key.endsWith('A') ? 'B' : 'A'}` },
      { authorization: `Bearer ${revokedKey}` },
    ];
    for (const route of routes()) {
      for (const headers of badHeaders) {
        const res = await app().app.inject({ method: route.method, url: route.url, headers });
        expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
        expect(res.headers['x-request-id']).toBeTruthy();
      }
    }
  });

  it('answers 403 { error: "API access requires the Scale plan" } for a valid key of a lower plan', async () => {
    for (const route of routes()) {
      const res = await app().api(pro, { method: route.method, url: route.url });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json()).toEqual(errorBody('API access requires the Scale plan', 'plan_required'));
    }
  });

  it('is mounted for the admin with the admin token, any plan, and 401 without it', async () => {
    for (const route of routes()) {
      const withToken = await app().admin({ method: route.method, url: route.adminUrl(pro.id) });
      expect([401, 403, 405], `${route.method} ${route.adminUrl(pro.id)}`).not.toContain(withToken.statusCode);
      expect(withToken.statusCode).toBeLessThan(500);
      const withKey = await app().app.inject({
        method: route.method,
        url: route.adminUrl(scale.id),
        headers: { authorization: `Bearer ${scale.key}` },
      });
      expect(withKey.statusCode).toBe(401);
      expect(withKey.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    }
  });

  it('never lets a key reach another shop through the admin mount or an id', async () => {
    const other = await app().createShop('scale');
    const imported = await app().api(other, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      payload: { campaigns: [{ name: 'theirs' }] },
    });
    const [theirId] = (imported.json() as { campaignIds: string[] }).campaignIds;
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await app().api(scale, {
        method,
        url: `/api/v1/campaigns/${theirId}`,
        ...(method === 'PUT' ? { payload: { name: 'x', enabled: false, isDraft: false, startAt: null, endAt: null, rules: [] } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found'));
    }
  });

  it('answers the admin mount of an unknown shop with 404', async () => {
    const res = await app().admin({ method: 'GET', url: '/admin/v1/shops/shp_unknown000000000/campaigns' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Shop not found', 'not_found'));
  });
});

describe('without ADMIN_TOKEN', () => {
  it('answers the admin API with 404 (only the CLI administers)', async () => {
    const bare = await createTestApp({ ADMIN_TOKEN: '' });
    try {
      const res = await bare.app.inject({ method: 'POST', url: '/admin/v1/shops', payload: { domain: 'a.example.com', plan: 'scale' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toHaveProperty('error');
    } finally {
      await bare.close();
    }
  });
});
