/**
 * The billing tests' stack: the app, the stand-in platform with the billing family (its
 * webhooks delivered into the app), and shops connected the way the platform connects them.
 */
import { randomBytes } from 'node:crypto';
import { createStandinBilling } from '../../dev/platform/billing.ts';
import type { StandinBilling } from '../../dev/platform/billing.ts';
import { startStandinPlatform } from '../../dev/platform/standin.ts';
import type { GraphqlAnswer, StandinPlatform } from '../../dev/platform/standin.ts';
import { signSessionToken } from '../../src/merchant-admin/session-token.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

export const SECRET = 'billing-test-app-secret';
export const APP_KEY = 'billing-test-app-key';
export const PRICES = {
  growth: { amount: '19.00', currencyCode: 'USD', interval: 'EVERY_30_DAYS', trialDays: 7 },
  pro: { amount: '49.00', currencyCode: 'USD', interval: 'EVERY_30_DAYS' },
};

export type BillingStack = {
  t: TestApp;
  platform: StandinPlatform;
  billing: StandinBilling;
  /** Set to answer appSubscriptionCreate with a fault instead (429, errors, userErrors …). */
  fault: { answer?: GraphqlAnswer };
  close(): Promise<void>;
};

export type ConnectedShop = { id: string; domain: string; token: string };

export async function startBillingStack(env: Record<string, string> = {}): Promise<BillingStack> {
  const holder: { app?: TestApp } = {};
  const billing = createStandinBilling({
    secret: SECRET,
    deliver: async (headers, body) => {
      const res = await holder.app?.app.inject({ method: 'POST', url: '/webhooks/platform', headers, payload: body });
      if (res?.statusCode !== 200) throw new Error(`webhook refused: ${res?.statusCode} ${res?.body}`);
    },
  });
  const fault: BillingStack['fault'] = {};
  const platform = await startStandinPlatform({
    families: [{ rootFields: billing.family.rootFields, answer: (call) => fault.answer ?? billing.family.answer(call) }],
    routes: billing.routes,
  });
  billing.origin = platform.url;
  const t = await createTestApp({
    PLATFORM_APP_SECRET: SECRET,
    PLATFORM_APP_KEY: APP_KEY,
    PLATFORM_ADMIN_API_URL: platform.url,
    PLATFORM_BILLING_PLANS: JSON.stringify(PRICES),
    PLATFORM_BILLING_TEST: 'true',
    ...env,
  });
  holder.app = t;
  return {
    t,
    platform,
    billing,
    fault,
    async close() {
      await t.close();
      await platform.close();
    },
  };
}

/** A shop on `plan`, known to the stand-in platform and connected with its offline token (unless `connected` is false). */
export async function connectedShop(stack: BillingStack, plan = 'free', connected = true): Promise<ConnectedShop> {
  const handle = `billing-${randomBytes(5).toString('hex')}`;
  const domain = `${handle}.myshopify.com`;
  const created = await stack.t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain, plan } });
  if (created.statusCode !== 201) throw new Error(created.body);
  const id = (created.json() as { shop: { id: string } }).shop.id;
  const token = `shpat_${randomBytes(16).toString('hex')}`;
  stack.platform.addShop({ domain, accessTokens: new Set([token]) });
  if (connected) {
    const res = await stack.t.admin({ method: 'PUT', url: `/admin/v1/shops/${id}/platform-connection`, payload: { accessToken: token } });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  return { id, domain, token };
}

/** A session token of the embedded admin for `domain`. */
export function sessionToken(domain: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signSessionToken({ iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: APP_KEY, sub: '42', exp: now + 60, nbf: now - 1, iat: now - 1 }, SECRET);
}

export async function planOf(t: TestApp, shopId: string): Promise<string> {
  return ((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}` })).json() as { shop: { plan: string } }).shop.plan;
}

export function subscribe(t: TestApp, shopId: string, plan: unknown) {
  return t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/billing/subscription`, payload: { plan } });
}
