/**
 * The shared security suite, admin side (STYLE "Tests"): every admin route, admin-only or a
 * public route on the shop mount, whoever added it, answers a missing or wrong admin token
 * with 401, an unknown shop with 404 `Shop not found`, and one shop's resource ids under
 * another shop's path with 404, leaving the resource alone. Built from the route tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnlyRoutes } from '../../src/admin-routes.ts';
import type { MountableRoute } from '../../src/http/shop-routes.ts';
import { publicShopRoutes } from '../../src/routes.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const t: { app?: TestApp } = {};
const app = () => {
  if (!t.app) throw new Error('app not started');
  return t.app;
};

/** Shop A's resources, by the path parameter that names them. */
const ids: Record<string, string> = {};
let owner: TestShop;
let stranger: TestShop;

const giftRule = (name: string) => ({
  name,
  conditionTree: { type: 'cart.subtotal_gte', value: 100 },
  giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/2001', quantity: 1 }] },
});

beforeAll(async () => {
  // With the app secret, so the platform's admin routes (platform-connection) are in the tables too.
  t.app = await createTestApp({ PLATFORM_APP_SECRET: 'platform-app-secret-every-admin-route' });
  owner = await app().createShop('scale');
  stranger = await app().createShop('scale');
  const base = `/admin/v1/shops/${owner.id}`;
  const keys = await app().admin({ method: 'GET', url: `${base}/api-keys` });
  ids.keyId = (keys.json() as { apiKeys: Array<{ id: string }> }).apiKeys[0]?.id ?? '';
  const endpoint = await app().admin({ method: 'POST', url: `${base}/webhook-endpoints`, payload: { url: 'https://example.com/hook' } });
  ids.endpointId = (endpoint.json() as { endpoint: { id: string } }).endpoint.id;
  await app().admin({
    method: 'POST',
    url: `${base}/catalog`,
    payload: { products: [{ id: '1001', title: 'Mug', status: 'active', variants: [{ id: '2001', title: 'Mug', inventoryQuantity: 9, inventoryPolicy: 'DENY' }] }] },
  });
  ids.productId = '1001';
  const imported = await app().api(owner, {
    method: 'POST',
    url: '/api/v1/campaigns/import',
    payload: { campaigns: [{ name: 'Mine', rules: [giftRule('a'), giftRule('b')] }] },
  });
  const campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
  ids.campaignId = campaignId;
  ids.id = campaignId;
  const campaign = await app().api(owner, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` });
  const ruleIds = (campaign.json() as { campaign: { rules: Array<{ id: string }> } }).campaign.rules.map((rule) => rule.id);
  ids.ruleIds = ruleIds.join(',');
  const experiment = await app().admin({
    method: 'POST',
    url: `${base}/campaigns/${campaignId}/experiments`,
    payload: { primaryMetric: 'conversion_rate', variants: ruleIds.map((ruleId, i) => ({ name: `v${i}`, ruleId, weight: 1 })) },
  });
  ids.experimentId = (experiment.json() as { experiment: { id: string } }).experiment.id;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/\S/);
});
afterAll(() => t.app?.close());

/**
 * A body that passes the schema of each route with a resource id and a body, so the request
 * reaches the handler's own lookup: a 404 below is the handler's, not a 400 of validation.
 */
const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  startExperiment: () => ({
    primaryMetric: 'conversion_rate',
    variants: (ids.ruleIds ?? '').split(',').map((ruleId, i) => ({ name: `v${i}`, ruleId, weight: 1 })),
  }),
  concludeExperiment: () => ({ winnerVariantId: 'var_x' }),
  replaceCampaign: () => ({ name: 'x', enabled: false, isDraft: false, startAt: null, endAt: null, rules: [] }),
  scheduleCampaign: () => ({ startAt: null }),
};

type AdminCase = { route: MountableRoute; url: (shopId: string, params?: Record<string, string>) => string };

const adminCases = (): AdminCase[] =>
  [...adminOnlyRoutes(app().ctx), ...publicShopRoutes(app().ctx)].map((route) => ({
    route,
    url: (shopId, params = {}) => {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => params[name] ?? 'unknown0000000000');
      return route.scope === 'shop' ? `/admin/v1/shops/${shopId}${path}` : `/admin/v1${path}`;
    },
  }));

describe('every admin route', () => {
  it('has routes to check', () => {
    expect(adminOnlyRoutes(app().ctx).length).toBeGreaterThanOrEqual(15);
  });

  it('answers 401 { error: "Unauthorized" } without the admin token', async () => {
    const badHeaders: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer wrong-token-xxxxxxxxxxxxxxxx' },
      { authorization: `Bearer ${owner.key}` },
    ];
    for (const { route, url } of adminCases()) {
      for (const headers of badHeaders) {
        const res = await app().app.inject({ method: route.method, url: url(owner.id, ids), headers });
        expect(res.statusCode, `${route.method} ${url(owner.id, ids)} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
        expect(res.headers['x-request-id']).toBeTruthy();
      }
    }
  });

  it('answers 404 { error: "Shop not found" } for an unknown shop, whatever the body', async () => {
    for (const { route, url } of adminCases().filter((c) => c.route.scope === 'shop')) {
      const target = url('shp_unknown000000000', ids);
      const res = await app().admin({ method: route.method, url: target, ...(route.body ? { payload: { junk: true } } : {}) });
      expect(res.statusCode, `${route.method} ${target}`).toBe(404);
      expect(res.json()).toEqual(errorBody('Shop not found', 'not_found'));
    }
  });

  it("answers 404 for one shop's resource ids under another shop's path, and leaves them alone", async () => {
    const withIds = adminCases().filter((c) => c.route.scope === 'shop' && /:[A-Za-z]/.test(c.route.path));
    expect(withIds.length).toBeGreaterThanOrEqual(10);
    for (const { route, url } of withIds) {
      const body = VALID_BODIES[route.operationId];
      expect(route.body === undefined || body !== undefined, `add a valid body for ${route.operationId}`).toBe(true);
      const target = url(stranger.id, ids);
      const res = await app().admin({ method: route.method, url: target, ...(route.body && body ? { payload: body() } : {}) });
      expect(res.statusCode, `${route.method} ${target}: ${res.body}`).toBe(404);
      expect((res.json() as { error: string }).error).toMatch(/ not found$/);
    }
    const base = `/admin/v1/shops/${owner.id}`;
    const keys = (await app().admin({ method: 'GET', url: `${base}/api-keys` })).json() as { apiKeys: Array<{ id: string }> };
    expect(keys.apiKeys.map((key) => key.id)).toContain(ids.keyId);
    const hooks = (await app().admin({ method: 'GET', url: `${base}/webhook-endpoints` })).json() as { endpoints: Array<{ id: string }> };
    expect(hooks.endpoints.map((endpoint) => endpoint.id)).toContain(ids.endpointId);
    const experiments = await app().admin({ method: 'GET', url: `${base}/campaigns/${ids.campaignId}/experiments` });
    expect(experiments.json()).toMatchObject({ experiments: [{ id: ids.experimentId, status: 'running' }] });
    expect((await app().api(owner, { method: 'GET', url: `/api/v1/campaigns/${ids.id}` })).statusCode).toBe(200);
  });

});
