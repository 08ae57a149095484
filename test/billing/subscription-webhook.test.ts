/**
 * `app_subscriptions/update` on POST /webhooks/platform (CONTRACT part three: "the plan changes
 * only when the platform says so"): ACTIVE sets the plan of the subscription's name; an ending
 * status of the current subscription sets Free; a stale subscription, a late or repeated
 * delivery, or another shop's subscription changes nothing; a downgrade gates GET /rules.
 * PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver } from '../platform-webhooks/fixtures.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { connectedShop, planOf, SECRET, startBillingStack } from './support.ts';
import type { BillingStack, ConnectedShop } from './support.ts';

let stack: BillingStack;
beforeAll(async () => {
  stack = await startBillingStack();
});
afterAll(() => stack.close());

let next = 9_000_000;
const newId = () => `gid://shopify/AppSubscription/${next++}`;
const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00-05:00`;

function update(shop: ConnectedShop, input: { id: string; name: string; status: string; updatedAt: string }, webhookId = randomUUID()) {
  const payload = {
    app_subscription: {
      admin_graphql_api_id: input.id,
      name: input.name,
      status: input.status,
      admin_graphql_api_shop_id: 'gid://shopify/Shop/548380009',
      created_at: at(0),
      updated_at: input.updatedAt,
      currency: 'USD',
      capped_amount: null,
    },
  };
  return deliver(stack.t, payload, { topic: 'app_subscriptions/update', domain: shop.domain, webhookId, secret: SECRET });
}

async function expectAnswer(res: Awaited<ReturnType<typeof update>>, duplicate = false) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ ok: true, duplicate });
}

describe('ACTIVE and the ending statuses', () => {
  it('ACTIVE with a plan\'s name sets that plan; CANCELLED of it sets Free', async () => {
    const shop = await connectedShop(stack);
    const id = newId();
    await expectAnswer(await update(shop, { id, name: 'Pro', status: 'ACTIVE', updatedAt: at(1) }));
    expect(await planOf(stack.t, shop.id)).toBe('pro');
    await expectAnswer(await update(shop, { id, name: 'Pro', status: 'CANCELLED', updatedAt: at(2) }));
    expect(await planOf(stack.t, shop.id)).toBe('free');
  });

  it.each(['DECLINED', 'EXPIRED', 'FROZEN'])('%s of the current subscription sets Free', async (status) => {
    const shop = await connectedShop(stack);
    const id = newId();
    await update(shop, { id, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) });
    await expectAnswer(await update(shop, { id, name: 'Growth', status, updatedAt: at(2) }));
    expect(await planOf(stack.t, shop.id)).toBe('free');
  });

  it('a frozen subscription that is ACTIVE again gives its plan back', async () => {
    const shop = await connectedShop(stack);
    const id = newId();
    await update(shop, { id, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) });
    await update(shop, { id, name: 'Growth', status: 'FROZEN', updatedAt: at(2) });
    await update(shop, { id, name: 'Growth', status: 'ACTIVE', updatedAt: at(3) });
    expect(await planOf(stack.t, shop.id)).toBe('growth');
  });

  it('PENDING, a name that is no plan, and a subscription that is not current change nothing', async () => {
    const shop = await connectedShop(stack);
    const current = newId();
    await update(shop, { id: current, name: 'Pro', status: 'ACTIVE', updatedAt: at(1) });
    await expectAnswer(await update(shop, { id: newId(), name: 'Growth', status: 'PENDING', updatedAt: at(2) }));
    await expectAnswer(await update(shop, { id: newId(), name: 'Gold', status: 'ACTIVE', updatedAt: at(3) }));
    await expectAnswer(await update(shop, { id: newId(), name: 'Growth', status: 'CANCELLED', updatedAt: at(4) }));
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });
});

describe('order and repetition', () => {
  it('an upgrade: the replaced subscription\'s cancellation, before or after, leaves the new plan', async () => {
    for (const cancelFirst of [false, true]) {
      const shop = await connectedShop(stack);
      const [growth, pro] = [newId(), newId()];
      await update(shop, { id: growth, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) });
      // The platform stamps both with the same second.
      const cancel = () => update(shop, { id: growth, name: 'Growth', status: 'CANCELLED', updatedAt: at(5) });
      const activate = () => update(shop, { id: pro, name: 'Pro', status: 'ACTIVE', updatedAt: at(5) });
      if (cancelFirst) await cancel();
      await activate();
      if (!cancelFirst) await cancel();
      expect(await planOf(stack.t, shop.id), `cancel first: ${cancelFirst}`).toBe('pro');
    }
  });

  it('an upgrade delivered all at once (old ACTIVE late, new ACTIVE, old CANCELLED) ends on the new plan', async () => {
    const shop = await connectedShop(stack);
    const [growth, pro] = [newId(), newId()];
    const results = await Promise.all([
      update(shop, { id: growth, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) }),
      update(shop, { id: pro, name: 'Pro', status: 'ACTIVE', updatedAt: at(5) }),
      update(shop, { id: growth, name: 'Growth', status: 'CANCELLED', updatedAt: at(5) }),
    ]);
    expect(results.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });

  it('a late ACTIVE of a replaced subscription does not flip the plan back', async () => {
    const shop = await connectedShop(stack);
    const [growth, pro] = [newId(), newId()];
    await update(shop, { id: pro, name: 'Pro', status: 'ACTIVE', updatedAt: at(5) });
    await update(shop, { id: growth, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) });
    expect(await planOf(stack.t, shop.id)).toBe('pro');
  });

  it('a late ACTIVE of a subscription already cancelled changes nothing', async () => {
    const shop = await connectedShop(stack);
    const id = newId();
    await update(shop, { id, name: 'Pro', status: 'CANCELLED', updatedAt: at(5) });
    await update(shop, { id, name: 'Pro', status: 'ACTIVE', updatedAt: at(1) });
    expect(await planOf(stack.t, shop.id)).toBe('free');
  });

  it('the same delivery twice acts once', async () => {
    const shop = await connectedShop(stack);
    const id = newId();
    const webhookId = randomUUID();
    await update(shop, { id, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) });
    await expectAnswer(await update(shop, { id, name: 'Growth', status: 'CANCELLED', updatedAt: at(2) }, webhookId));
    await update(shop, { id, name: 'Growth', status: 'ACTIVE', updatedAt: at(3) });
    await expectAnswer(await update(shop, { id, name: 'Growth', status: 'CANCELLED', updatedAt: at(2) }, webhookId), true);
    expect(await planOf(stack.t, shop.id)).toBe('growth');
  });
});

describe('app/uninstalled', () => {
  it('ends the current subscription: Free; a late ACTIVE of it changes nothing; a plan the operator set stays', async () => {
    const [billed, operatorSet] = [await connectedShop(stack), await connectedShop(stack, 'scale')];
    const id = newId();
    await update(billed, { id, name: 'Pro', status: 'ACTIVE', updatedAt: at(1) });
    for (const shop of [billed, operatorSet]) {
      const res = await deliver(stack.t, { id: 1, domain: shop.domain }, { topic: 'app/uninstalled', domain: shop.domain, secret: SECRET });
      expect(res.statusCode, res.body).toBe(200);
    }
    await update(billed, { id, name: 'Pro', status: 'ACTIVE', updatedAt: at(2) });
    expect([await planOf(stack.t, billed.id), await planOf(stack.t, operatorSet.id)]).toEqual(['free', 'scale']);
  });
});

describe('errors and cross-shop', () => {
  it.each([
    ['no app_subscription', {}],
    ['an id that is not an AppSubscription gid', { app_subscription: { admin_graphql_api_id: '42', name: 'Pro', status: 'ACTIVE', updated_at: at(1) } }],
    ['an unknown status', { app_subscription: { admin_graphql_api_id: newId(), name: 'Pro', status: 'PAID', updated_at: at(1) } }],
    ['no updated_at', { app_subscription: { admin_graphql_api_id: newId(), name: 'Pro', status: 'ACTIVE' } }],
  ])('400 for %s, plan unchanged', async (_name, payload) => {
    const shop = await connectedShop(stack);
    const res = await deliver(stack.t, payload, { topic: 'app_subscriptions/update', domain: shop.domain, secret: SECRET });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid app_subscriptions/update payload' });
    expect(await planOf(stack.t, shop.id)).toBe('free');
  });

  it('401 for a wrong signature', async () => {
    const shop = await connectedShop(stack);
    const res = await deliver(stack.t, { app_subscription: {} }, { topic: 'app_subscriptions/update', domain: shop.domain, secret: 'another-secret' });
    expect(res.statusCode).toBe(401);
  });

  it('shop B\'s subscription delivered under shop A\'s domain changes neither shop', async () => {
    const [a, b] = [await connectedShop(stack), await connectedShop(stack)];
    const ofB = newId();
    await update(b, { id: ofB, name: 'Growth', status: 'ACTIVE', updatedAt: at(1) });
    await expectAnswer(await update(a, { id: ofB, name: 'Pro', status: 'ACTIVE', updatedAt: at(2) }));
    await expectAnswer(await update(a, { id: ofB, name: 'Growth', status: 'CANCELLED', updatedAt: at(3) }));
    expect([await planOf(stack.t, a.id), await planOf(stack.t, b.id)]).toEqual(['free', 'growth']);
  });
});

describe('a downgrade gates delivery', () => {
  it('GET /rules strips the leaves the new plan lacks; the stored rule keeps them', async () => {
    const shop = await connectedShop(stack);
    const id = newId();
    await update(shop, { id, name: 'Pro', status: 'ACTIVE', updatedAt: at(1) });
    const tree = { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }, { type: 'customer.tag_in', value: ['vip'] }] };
    const imported = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [campaign('VIP', { enabled: true, isDraft: false, rules: [rule('vip', tree)] })] },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const [campaignId] = (imported.json() as { campaignIds: string[] }).campaignIds;
    const rules = async () => (await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/rules` })).body;
    expect(await rules()).toContain('customer.tag_in');

    await update(shop, { id, name: 'Pro', status: 'CANCELLED', updatedAt: at(2) });
    expect(await planOf(stack.t, shop.id)).toBe('free');
    const delivered = await rules();
    expect(delivered).toContain('cart.subtotal_gte');
    expect(delivered).not.toContain('customer.tag_in');
    const stored = await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` });
    expect(stored.body).toContain('customer.tag_in');
  });
});
