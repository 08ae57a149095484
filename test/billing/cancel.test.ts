/**
 * Back to Free (CONTRACT part three "Plans through the platform's billing"; docs/billing.md "Back
 * to Free"): POST …/billing/subscription `{ plan: "free" }` cancels the shop's current subscription
 * with `appSubscriptionCancel` on the operator's mount and the merchant's, and the plan becomes
 * Free only when the platform's `app_subscriptions/update` CANCELLED arrives. Every refusal a
 * clear 4xx; one shop never cancels another's. PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SUBSCRIPTION_CANCEL } from '../../src/billing/platform-subscription.ts';
import { connectionStatus } from '../../src/platform/connections.ts';
import { connectedShop, planOf, sessionToken, startBillingStack, subscribe } from './support.ts';
import type { BillingStack, ConnectedShop } from './support.ts';

let stack: BillingStack;
beforeAll(async () => {
  stack = await startBillingStack();
});
afterAll(() => stack.close());

const cancels = () => stack.platform.requests.filter((r) => r.query === APP_SUBSCRIPTION_CANCEL);
const currentOf = async (shopId: string) =>
  ((await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/billing` })).json() as { currentSubscriptionId: string | null }).currentSubscriptionId;

/** A connected shop on `plan`, bought through the platform's billing (approved on its page). */
async function paidShop(plan: 'growth' | 'pro' = 'pro'): Promise<ConnectedShop & { subscriptionId: string }> {
  const shop = await connectedShop(stack);
  const { subscriptionId } = (await subscribe(stack.t, shop.id, plan)).json() as { subscriptionId: string };
  await stack.billing.decide(subscriptionId, 'approve');
  expect(await planOf(stack.t, shop.id)).toBe(plan);
  return { ...shop, subscriptionId };
}

describe('happy path', () => {
  it('cancels the current subscription; the platform\'s CANCELLED webhook sets Free', async () => {
    const shop = await paidShop();
    const res = await subscribe(stack.t, shop.id, 'free');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ confirmationUrl: null, subscriptionId: shop.subscriptionId, status: 'CANCELLED' });
    expect(cancels().at(-1)).toMatchObject({ token: shop.token, variables: { id: shop.subscriptionId } });
    expect(stack.billing.subscriptions.get(shop.subscriptionId)?.status).toBe('CANCELLED');
    await stack.billing.settled();
    expect(await planOf(stack.t, shop.id)).toBe('free');
    expect(await currentOf(shop.id)).toBeNull();
    // Then a paid plan again, as any Free shop.
    expect((await subscribe(stack.t, shop.id, 'growth')).statusCode).toBe(200);
  });

  it('changes no plan on the cancel\'s answer alone: only the webhook does', async () => {
    const shop = await paidShop();
    stack.fault.answer = { data: { appSubscriptionCancel: { appSubscription: { id: shop.subscriptionId, status: 'CANCELLED' }, userErrors: [] } } };
    try {
      expect((await subscribe(stack.t, shop.id, 'free')).statusCode).toBe(200);
    } finally {
      delete stack.fault.answer;
    }
    expect(await planOf(stack.t, shop.id)).toBe('pro');
    expect(await currentOf(shop.id)).toBe(shop.subscriptionId);
    await stack.billing.setStatus(shop.subscriptionId, 'CANCELLED');
    expect(await planOf(stack.t, shop.id)).toBe('free');
  });

  it('is the same handler on the merchant\'s mount (Settings → Plan → Free)', async () => {
    const shop = await paidShop('growth');
    const res = await stack.t.app.inject({
      method: 'POST',
      url: '/app/api/v1/billing/subscription',
      headers: { authorization: `Bearer ${sessionToken(shop.domain)}` },
      payload: { plan: 'free' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(cancels().at(-1)?.token).toBe(shop.token);
    await stack.billing.settled();
    expect(await planOf(stack.t, shop.id)).toBe('free');
  });
});

describe('refusals: a clear 4xx, never a 5xx, the plan kept', () => {
  it('already on Free (409), and a paid plan the operator set with no subscription (409), without asking the platform', async () => {
    const free = await connectedShop(stack);
    const operatorSet = await connectedShop(stack, 'scale');
    const before = stack.platform.requests.length;
    const onFree = await subscribe(stack.t, free.id, 'free');
    expect(onFree.statusCode).toBe(409);
    expect(onFree.json()).toMatchObject({ error: 'The shop is already on the Free plan' });
    const none = await subscribe(stack.t, operatorSet.id, 'free');
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ error: 'The shop has no subscription to cancel' });
    expect(stack.platform.requests.length).toBe(before);
    expect(await planOf(stack.t, operatorSet.id)).toBe('scale');
  });

  it('a shop not connected to the platform: 409 pointing to the operator\'s plan change', async () => {
    const own = await connectedShop(stack, 'pro', false);
    const res = await subscribe(stack.t, own.id, 'free');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop is not connected to the platform' });
    expect((await stack.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${own.id}`, payload: { plan: 'free' } })).statusCode).toBe(200);
  });

  it('a second cancel before the webhook: the platform refuses it (409)', async () => {
    const shop = await paidShop();
    stack.fault.answer = { data: { appSubscriptionCancel: { appSubscription: { id: shop.subscriptionId, status: 'CANCELLED' }, userErrors: [] } } };
    try {
      await subscribe(stack.t, shop.id, 'free');
    } finally {
      delete stack.fault.answer;
    }
    // The stand-in still holds it ACTIVE (the fault answered for it): cancel it for real, without its webhook yet.
    const stored = stack.billing.subscriptions.get(shop.subscriptionId);
    if (stored) stored.status = 'CANCELLED';
    const again = await subscribe(stack.t, shop.id, 'free');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'The platform refused to cancel the subscription', issue: 'Subscription is cancelled and cannot be cancelled' });
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });

  it.each([
    ['throttling (429 with Retry-After)', { status: 429, headers: { 'retry-after': '4' }, errors: [{ message: 'Throttled' }] }, 429, 'Rate limit exceeded'],
    ['an errors array', { errors: [{ message: 'Internal error' }] }, 409, 'The platform did not cancel the subscription'],
    ['userErrors', { data: { appSubscriptionCancel: { appSubscription: null, userErrors: [{ field: ['id'], message: 'Couldn\'t find RecurringApplicationCharge' }] } } }, 409, 'The platform refused to cancel the subscription'],
    ['an answer without the fields', { data: { appSubscriptionCancel: null } }, 409, 'The platform did not cancel the subscription'],
    ['an outage (503)', { status: 503, errors: [{ message: 'Unavailable' }] }, 409, 'The platform did not cancel the subscription'],
  ])('the platform answers %s', async (_name, answer, status, error) => {
    const shop = await paidShop();
    stack.fault.answer = answer;
    try {
      const res = await subscribe(stack.t, shop.id, 'free');
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error });
      if (status === 429) expect(res.headers['retry-after']).toBe('4');
    } finally {
      delete stack.fault.answer;
    }
    expect(await planOf(stack.t, shop.id)).toBe('pro');
    expect(await currentOf(shop.id)).toBe(shop.subscriptionId);
  });

  it('a revoked token (401): 409 saying the connection is broken, and the connection marked broken', async () => {
    const shop = await paidShop();
    stack.platform.shops.get(shop.domain)?.accessTokens.clear();
    const res = await subscribe(stack.t, shop.id, 'free');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The shop\'s platform connection is broken' });
    expect((await connectionStatus(stack.t.ctx.db, shop.id)).brokenAt).not.toBeNull();
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });
});

describe('cross-shop', () => {
  it('shop A\'s session cancels shop A\'s subscription only; B keeps its plan and cannot be reached', async () => {
    const [a, b] = [await paidShop(), await paidShop('growth')];
    const asA = { authorization: `Bearer ${sessionToken(a.domain)}` };
    const res = await stack.t.app.inject({ method: 'POST', url: '/app/api/v1/billing/subscription', headers: asA, payload: { plan: 'free' } });
    expect(res.statusCode).toBe(200);
    expect(cancels().at(-1)?.variables).toEqual({ id: a.subscriptionId });
    const intoB = await stack.t.app.inject({ method: 'POST', url: `/admin/v1/shops/${b.id}/billing/subscription`, headers: asA, payload: { plan: 'free' } });
    expect(intoB.statusCode).toBe(401);
    await stack.billing.settled();
    expect([await planOf(stack.t, a.id), await planOf(stack.t, b.id)]).toEqual(['free', 'growth']);
    expect(stack.billing.subscriptions.get(b.subscriptionId)?.status).toBe('ACTIVE');
  });

  it('the stand-in, as the platform, refuses to cancel another shop\'s subscription', async () => {
    const [a, b] = [await paidShop(), await paidShop()];
    const res = await fetch(`${stack.platform.url}/admin/api/2025-10/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': a.token },
      body: JSON.stringify({ query: APP_SUBSCRIPTION_CANCEL, variables: { id: b.subscriptionId } }),
    });
    expect(await res.json()).toEqual({ data: { appSubscriptionCancel: { appSubscription: null, userErrors: [{ field: ['id'], message: 'Couldn\'t find RecurringApplicationCharge' }] } } });
    expect(stack.billing.subscriptions.get(b.subscriptionId)?.status).toBe('ACTIVE');
  });
});
