/**
 * The stand-in's billing family on its own (dev/platform/billing.ts): `appSubscriptionCreate`
 * in the platform's shape with its userErrors, the confirmation page, and the webhook it sends
 * signed as the platform signs (verified with the service's own check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_PATH, createStandinBilling } from '../../dev/platform/billing.ts';
import type { StandinBilling } from '../../dev/platform/billing.ts';
import { startStandinPlatform } from '../../dev/platform/standin.ts';
import type { StandinPlatform } from '../../dev/platform/standin.ts';
import { signPlatformBody } from '../../src/orders/platform-signature.ts';

const ENDPOINT = '/admin/api/2025-10/graphql.json';
const CREATE = 'mutation($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!, $test: Boolean) { created: appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, test: $test) { appSubscription { id } confirmationUrl userErrors { field message } } }';
const recurring = (amount: string) => [{ plan: { appRecurringPricingDetails: { price: { amount, currencyCode: 'USD' }, interval: 'EVERY_30_DAYS' } } }];

describe('stand-in billing', () => {
  let platform: StandinPlatform;
  let billing: StandinBilling;
  const sent: Array<{ headers: Record<string, string>; body: string }> = [];
  beforeAll(async () => {
    billing = createStandinBilling({ secret: 's3cret', deliver: async (headers, body) => sent.push({ headers, body }) });
    platform = await startStandinPlatform({ families: [billing.family], routes: billing.routes });
    billing.origin = platform.url;
    platform.addShop({ domain: 'a.myshopify.com', accessTokens: new Set(['shpat_a']) });
  });
  afterAll(() => platform.close());

  const create = async (variables: Record<string, unknown>) => {
    const res = await fetch(platform.url + ENDPOINT, {
      method: 'POST',
      headers: { 'x-shopify-access-token': 'shpat_a', 'content-type': 'application/json' },
      body: JSON.stringify({ query: CREATE, variables }),
    });
    return ((await res.json()) as { data: { created: { appSubscription: { id: string } | null; confirmationUrl: string | null; userErrors: unknown[] } } }).data.created;
  };

  it('answers userErrors for what the platform refuses, and creates nothing', async () => {
    const refused = await create({ name: ' ', returnUrl: 'not a url', lineItems: recurring('0') });
    expect(refused).toEqual({
      appSubscription: null,
      confirmationUrl: null,
      userErrors: [
        { field: ['name'], message: 'Name can\'t be blank' },
        { field: ['returnUrl'], message: 'Return url is invalid' },
        { field: ['lineItems', 'plan', 'appRecurringPricingDetails', 'price'], message: 'Price must be greater than 0' },
      ],
    });
    expect(billing.subscriptions.size).toBe(0);
  });

  it('creates a PENDING subscription; approving sends app_subscriptions/update ACTIVE, signed, and cancels the one it replaces', async () => {
    const first = await create({ name: 'Growth', returnUrl: 'https://admin.shopify.com/store/a/apps/key', lineItems: recurring('19.00'), test: true });
    expect(first.userErrors).toEqual([]);
    expect(first.confirmationUrl).toBe(`${platform.url}${CONFIRM_PATH}?charge_id=${first.appSubscription?.id.split('/').pop()}`);
    await billing.decide(first.appSubscription?.id ?? '', 'approve');
    const second = await create({ name: 'Pro', returnUrl: 'https://admin.shopify.com/store/a/apps/key', lineItems: recurring('49.00') });
    const page = await fetch(second.confirmationUrl ?? '');
    expect(await page.text()).toContain('<strong>Pro</strong>');
    const chargeId = new URL(second.confirmationUrl ?? '').searchParams.get('charge_id') ?? '';
    const approved = await fetch(platform.url + CONFIRM_PATH, { method: 'POST', body: new URLSearchParams({ charge_id: chargeId, decision: 'approve' }), redirect: 'manual' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(`https://admin.shopify.com/store/a/apps/key?charge_id=${chargeId}`);

    const updates = sent.map(({ headers, body }) => {
      expect(headers['x-shopify-hmac-sha256']).toBe(signPlatformBody(body, 's3cret'));
      expect(headers).toMatchObject({ 'x-shopify-topic': 'app_subscriptions/update', 'x-shopify-shop-domain': 'a.myshopify.com' });
      const { app_subscription: s } = JSON.parse(body) as { app_subscription: { name: string; status: string; updated_at: string } };
      expect(s.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      return `${s.name} ${s.status}`;
    });
    expect(updates).toEqual(['Growth ACTIVE', 'Pro ACTIVE', 'Growth CANCELLED']);
  });

  it('answers 404 for an unknown charge and 400 for an unknown decision', async () => {
    expect((await fetch(`${platform.url}${CONFIRM_PATH}?charge_id=999`)).status).toBe(404);
    expect((await fetch(platform.url + CONFIRM_PATH, { method: 'POST', body: 'charge_id=1&decision=maybe' })).status).toBe(400);
  });
});
