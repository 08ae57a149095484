/**
 * POST …/billing/subscription (CONTRACT part three "Plans through the platform's billing") on the
 * operator's mount and the merchant's, against the stand-in platform: the subscription the
 * platform is asked for, approval through its confirmation page, every refusal a clear 4xx, and
 * one shop's session never reaching another shop. PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SUBSCRIPTION_CREATE } from '../../src/billing/platform-subscription.ts';
import { connectionStatus } from '../../src/platform/connections.ts';
import { connectedShop, planOf, PRICES, sessionToken, startBillingStack, subscribe } from './support.ts';
import type { BillingStack, ConnectedShop } from './support.ts';

let stack: BillingStack;
beforeAll(async () => {
  stack = await startBillingStack();
});
afterAll(() => stack.close());

const lastCreate = () => stack.platform.requests.filter((r) => r.query === APP_SUBSCRIPTION_CREATE).at(-1);
type Created = { confirmationUrl: string; subscriptionId: string };

describe('happy path', () => {
  let shop: ConnectedShop;
  beforeAll(async () => {
    shop = await connectedShop(stack);
  });

  it('asks the platform for the plan at its configured price, test mode, back to the embedded admin; the plan waits for approval', async () => {
    const res = await subscribe(stack.t, shop.id, 'growth');
    expect(res.statusCode, res.body).toBe(200);
    const { confirmationUrl, subscriptionId } = res.json() as Created;
    expect(confirmationUrl.startsWith(`${stack.platform.url}/admin/charges/`)).toBe(true);
    const sent = lastCreate();
    expect(sent?.token).toBe(shop.token);
    expect(sent?.variables).toEqual({
      name: 'Growth',
      returnUrl: `https://admin.shopify.com/store/${shop.domain.replace('.myshopify.com', '')}/apps/billing-test-app-key`,
      test: true,
      trialDays: 7,
      lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: '19.00', currencyCode: 'USD' }, interval: 'EVERY_30_DAYS' } } }],
    });
    expect(await planOf(stack.t, shop.id)).toBe('free');
    const billing = await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/billing` });
    expect(billing.json()).toMatchObject({ plan: 'free', connected: true, currentSubscriptionId: null, test: true });
    expect(stack.billing.subscriptions.get(subscriptionId)?.status).toBe('PENDING');
  });

  it('sets the plan when the merchant approves on the platform\'s page (app_subscriptions/update ACTIVE)', async () => {
    const { confirmationUrl, subscriptionId } = (await subscribe(stack.t, shop.id, 'pro')).json() as Created;
    const page = await fetch(confirmationUrl);
    expect(await page.text()).toContain('Approve');
    const chargeId = new URL(confirmationUrl).searchParams.get('charge_id') ?? '';
    const approved = await fetch(confirmationUrl.split('?')[0] ?? '', {
      method: 'POST',
      body: new URLSearchParams({ charge_id: chargeId, decision: 'approve' }),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toContain('https://admin.shopify.com/store/');
    expect(await planOf(stack.t, shop.id)).toBe('pro');
    const billing = (await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/billing` })).json() as { currentSubscriptionId: string; plans: unknown[] };
    expect(billing.currentSubscriptionId).toBe(subscriptionId);
    expect(billing.plans).toEqual([
      { plan: 'free', name: 'Free', price: null },
      { plan: 'growth', name: 'Growth', price: PRICES.growth },
      { plan: 'pro', name: 'Pro', price: PRICES.pro },
      { plan: 'scale', name: 'Scale', price: null },
    ]);
  });

  it('keeps the plan when the merchant declines', async () => {
    const { subscriptionId } = (await subscribe(stack.t, shop.id, 'growth')).json() as Created;
    await stack.billing.decide(subscriptionId, 'decline');
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });

  it('is the same handler on the merchant\'s mount: the session\'s own shop', async () => {
    const res = await stack.t.app.inject({
      method: 'POST',
      url: '/app/api/v1/billing/subscription',
      headers: { authorization: `Bearer ${sessionToken(shop.domain)}` },
      payload: { plan: 'growth' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(lastCreate()?.token).toBe(shop.token);
    const read = await stack.t.app.inject({ method: 'GET', url: '/app/api/v1/billing', headers: { authorization: `Bearer ${sessionToken(shop.domain)}` } });
    expect(read.json()).toMatchObject({ plan: 'pro', connected: true });
  });

  it('refuses a new plan through PATCH for a connected shop (409); the same plan is no change', async () => {
    const res = await stack.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan: 'scale' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop\'s plan is billed by the platform', path: ['plan'] });
    expect((await stack.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan: 'pro' } })).statusCode).toBe(200);
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });
});

describe('refusals: a clear 4xx, never a 5xx, nothing changed', () => {
  let shop: ConnectedShop;
  beforeAll(async () => {
    shop = await connectedShop(stack, 'growth');
  });

  it.each([
    ['no plan', {}, 400, 'Invalid billing body'],
    ['an unknown plan', { plan: 'gold' }, 400, 'Invalid billing body'],
    ['Free without a subscription to cancel (the operator set the plan)', { plan: 'free' }, 409, 'The shop has no subscription to cancel'],
    ['the current plan', { plan: 'growth' }, 409, 'The shop is already on the Growth plan'],
    ['a plan without a price', { plan: 'scale' }, 409, 'The Scale plan is not for sale'],
  ])('%s', async (_name, body, status, error) => {
    const before = stack.platform.requests.length;
    const res = await stack.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/billing/subscription`, payload: body });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error });
    expect(stack.platform.requests.length).toBe(before);
  });

  it('a shop not connected to the platform: 409 pointing to the operator\'s plan change, which still works', async () => {
    const own = await connectedShop(stack, 'free', false);
    const res = await subscribe(stack.t, own.id, 'pro');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop is not connected to the platform' });
    expect((res.json() as { issue: string }).issue).toContain(`PATCH /admin/v1/shops/${own.id}`);
    expect((await stack.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${own.id}`, payload: { plan: 'pro' } })).statusCode).toBe(200);
    const read = await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${own.id}/billing` });
    expect(read.json()).toMatchObject({ plan: 'pro', connected: false });
  });

  it.each([
    ['throttling (429 with Retry-After)', { status: 429, headers: { 'retry-after': '3' }, errors: [{ message: 'Throttled' }] }, 429, 'Rate limit exceeded'],
    ['an errors array', { errors: [{ message: 'Internal error. Looks like something went wrong on our end.' }] }, 409, 'The platform did not create the subscription'],
    ['userErrors', { data: { appSubscriptionCreate: { appSubscription: null, confirmationUrl: null, userErrors: [{ field: ['name'], message: 'Name is too long' }] } } }, 409, 'The platform refused the subscription'],
    ['an answer without the fields', { data: { appSubscriptionCreate: null } }, 409, 'The platform did not create the subscription'],
    ['an outage (503)', { status: 503, errors: [{ message: 'Unavailable' }] }, 409, 'The platform did not create the subscription'],
  ])('the platform answers %s', async (_name, answer, status, error) => {
    stack.fault.answer = answer;
    try {
      const res = await subscribe(stack.t, shop.id, 'pro');
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error });
      if (status === 429) expect(res.headers['retry-after']).toBe('3');
    } finally {
      delete stack.fault.answer;
    }
    expect(await planOf(stack.t, shop.id)).toBe('growth');
  });

  it('a revoked token (401): 409 saying the connection is broken, and the connection marked broken', async () => {
    const revoked = await connectedShop(stack);
    stack.platform.shops.get(revoked.domain)?.accessTokens.clear();
    const res = await subscribe(stack.t, revoked.id, 'pro');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop\'s platform connection is broken' });
    expect((await connectionStatus(stack.t.ctx.db, revoked.id)).brokenAt).not.toBeNull();
  });
});

describe('cross-shop', () => {
  it('shop A\'s session subscribes shop A only, and cannot reach shop B\'s routes', async () => {
    const [a, b] = [await connectedShop(stack), await connectedShop(stack)];
    const asA = { authorization: `Bearer ${sessionToken(a.domain)}` };
    const res = await stack.t.app.inject({ method: 'POST', url: '/app/api/v1/billing/subscription', headers: asA, payload: { plan: 'pro' } });
    expect(res.statusCode).toBe(200);
    expect(lastCreate()?.token).toBe(a.token);
    const created = stack.billing.subscriptions.get((res.json() as Created).subscriptionId);
    expect(created?.shopDomain).toBe(a.domain);
    const intoB = await stack.t.app.inject({ method: 'POST', url: `/admin/v1/shops/${b.id}/billing/subscription`, headers: asA, payload: { plan: 'pro' } });
    expect(intoB.statusCode).toBe(401);
    expect(await planOf(stack.t, b.id)).toBe('free');
  });
});
