/** Shared steps of the storefront tests: signed proxy requests, tokens, shops with domains. */
import { expect } from 'vitest';
import type { InjectOptions } from 'fastify';
import { signAppProxyQuery } from '../../src/platform/signatures.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

export const APP_SECRET = 'storefront-test-app-secret';

export type StorefrontShop = TestShop & { domain: string };

let counter = 0;

/** A shop with a known domain (the app proxy names shops by domain). */
export async function createDomainShop(t: TestApp, plan: 'free' | 'growth' | 'pro' | 'scale' = 'scale'): Promise<StorefrontShop> {
  counter += 1;
  const domain = `sf-${process.pid}-${counter}-${Date.now()}.myshopify.com`;
  const shop = await t.createShop(plan, { domain });
  return { ...shop, domain };
}

/**
 * A request as the platform forwards it to `/proxy/<path>`: the shopper's query plus the
 * signed parameters. `customer` is the logged-in customer id (anonymous when absent).
 */
export function proxied(
  t: TestApp,
  shop: { domain: string },
  path: string,
  options: { customer?: string; query?: string; timestamp?: number; secret?: string; headers?: Record<string, string> } & Omit<InjectOptions, 'url' | 'query' | 'headers'> = {},
) {
  const { customer, query, timestamp, secret, headers, ...rest } = options;
  const signed = signAppProxyQuery(query ?? '', { shop: shop.domain, loggedInCustomerId: customer ?? '', ...(timestamp === undefined ? {} : { timestamp }) }, secret ?? APP_SECRET);
  return t.app.inject({ method: 'GET', ...rest, url: `/proxy/${path}?${signed}`, headers: { 'x-forwarded-for': '198.51.100.1', ...headers } });
}

/** Creates a storefront token through the admin API. */
export async function createToken(t: TestApp, shopId: string, allowedOrigins: string[] = ['https://shop.example.com']) {
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/storefront-tokens`, payload: { allowedOrigins } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { storefrontToken: { id: string; prefix: string; allowedOrigins: string[] }; token: string };
}

/** A live campaign (enabled, not draft) with the given rules, through the admin mount. */
export async function createLiveCampaign(t: TestApp, shopId: string, rules: unknown[]): Promise<{ campaignId: string; ruleIds: string[] }> {
  const imported = await t.admin({
    method: 'POST',
    url: `/admin/v1/shops/${shopId}/campaigns/import`,
    payload: { campaigns: [{ name: 'Live promo', enabled: true, isDraft: false, startAt: null, endAt: null, rules }] },
  });
  expect(imported.statusCode, imported.body).toBe(200);
  const [campaignId] = (imported.json() as { campaignIds: string[] }).campaignIds;
  const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/campaigns/${campaignId}` });
  return { campaignId: campaignId ?? '', ruleIds: (read.json() as { campaign: { rules: Array<{ id: string }> } }).campaign.rules.map((r) => r.id) };
}
