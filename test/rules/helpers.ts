/** Shared steps of the rules, widgets and experiments tests, all through the HTTP API. */
import { expect } from 'vitest';
import type { TestApp, TestShop } from '../support/test-app.ts';

export type PayloadRule = { id: string; campaignId: string; name: string; enabled: boolean; startAt: string | null; endAt: string | null };
export type Payload = {
  rules: PayloadRule[];
  experiments?: Array<{ id: string; campaignId: string; variants: Array<{ id: string; ruleId: string; weight: number }> }>;
  debugAllowed: boolean;
  shopSettings: { engine: Record<string, unknown>; checkout: Record<string, unknown>; data: Record<string, unknown> };
  widgets: Record<string, unknown> & { _version: number };
  baseCurrency: string;
};

/** Imports campaigns through the admin mount (any plan); returns their ids. */
export async function importCampaigns(t: TestApp, shop: TestShop, campaigns: unknown[]): Promise<string[]> {
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns } as Record<string, unknown> });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { campaignIds: string[] }).campaignIds;
}

/** The campaign as GET returns it. */
export async function readCampaign(t: TestApp, shop: TestShop, id: string) {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().campaign as {
    id: string;
    name: string;
    enabled: boolean;
    isDraft: boolean;
    startAt: string | null;
    endAt: string | null;
    rules: Array<Record<string, unknown> & { id: string }>;
    experiment: null | (Record<string, unknown> & { id: string; status: string; variants: Array<{ id: string; ruleId: string }> });
  };
}

/** GET /api/v1/rules with the shop's key (Scale) or through the admin mount. */
export async function getRules(t: TestApp, shop: TestShop, via: 'api' | 'admin' = 'api', headers: Record<string, string> = {}) {
  return via === 'api'
    ? t.api(shop, { method: 'GET', url: '/api/v1/rules', headers })
    : t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/rules`, headers });
}

export async function payloadOf(t: TestApp, shop: TestShop, via: 'api' | 'admin' = 'api'): Promise<Payload> {
  const res = await getRules(t, shop, via);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Payload;
}

export async function etagOf(t: TestApp, shop: TestShop, via: 'api' | 'admin' = 'api'): Promise<string> {
  const res = await getRules(t, shop, via);
  expect(res.statusCode, res.body).toBe(200);
  const etag = res.headers.etag;
  expect(typeof etag).toBe('string');
  return etag as string;
}

export async function startExperiment(t: TestApp, shop: TestShop, campaignId: string, ruleIds: string[]) {
  const res = await t.admin({
    method: 'POST',
    url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}/experiments`,
    payload: {
      primaryMetric: 'conversion_rate',
      variants: ruleIds.map((ruleId, index) => ({ name: `Variant ${index + 1}`, ruleId, weight: index + 1 })),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().experiment as { id: string; status: string; variants: Array<{ id: string; name: string; ruleId: string; weight: number }> };
}
