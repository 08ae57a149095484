/**
 * The theme script against the service's real storefront routes: the payload `GET /proxy/rules`
 * serves (collections map included) drives the script's pass, and the events the script
 * builds are what `POST /proxy/events` accepts. Another helper's browser tests cover the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRules, createRefusals, eventsBody, runCartPass } from '@gcrs/storefront';
import type { AjaxCart, CartPort, CartRequest, RulesPayloadInput } from '@gcrs/storefront';
import { rule } from '../campaigns/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { APP_SECRET, createDomainShop, createLiveCampaign, proxied } from './helpers.ts';
import type { StorefrontShop } from './helpers.ts';

let t: TestApp;
let shop: StorefrontShop;
let other: StorefrontShop;
beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: APP_SECRET });
  shop = await createDomainShop(t, 'scale');
  other = await createDomainShop(t, 'scale');
  await createLiveCampaign(t, shop.id, [rule('Spend 50')]);
});
afterAll(() => t.close());

/** An AJAX cart in memory, as the platform keeps one: adds append a line with its properties. */
function platformCart(items: AjaxCart['items']): { port: CartPort; calls: CartRequest[] } {
  const cart: AjaxCart = { token: 'cart-token-1', currency: 'USD', items };
  const calls: CartRequest[] = [];
  return {
    calls,
    port: {
      getCart: async () => structuredClone(cart),
      send: async (request) => {
        calls.push(request);
        if (request.kind === 'add') {
          for (const line of request.body.items) cart.items.push({ key: `${line.id}:gift`, id: line.id, product_id: 77, quantity: line.quantity, price: 1200, properties: line.properties });
        } else {
          cart.items = cart.items.filter((line) => line.key !== request.body.id);
        }
        return { kind: 'ok', body: null };
      },
    },
  };
}

async function payloadOf(s: StorefrontShop): Promise<RulesPayloadInput> {
  const res = await proxied(t, s, 'rules');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RulesPayloadInput;
}

describe('gifts.js against GET /proxy/rules and POST /proxy/events', () => {
  it("adds the live rule's gift with the attributes the checkout discount reads, and the events are accepted", async () => {
    const payload = await payloadOf(shop);
    const cart = platformCart([{ key: '1:a', id: 1, product_id: 10, quantity: 1, price: 6000, properties: {} }]);
    const outcome = await runCartPass(cart.port, { rules: compileRules(payload), shopper: { customerTags: [], loggedIn: false }, visitorId: 'v1', refusals: createRefusals(), collectCartTokens: true });
    expect(cart.calls).toHaveLength(1);
    const [added] = cart.calls;
    expect(added?.kind === 'add' && added.body.items[0]).toMatchObject({
      id: 1,
      quantity: 1,
      properties: { _svc_campaign_id: expect.stringMatching(/^cmp_/), _svc_rule_id: expect.stringMatching(/^rul_/), _svc_auto: 'true', _svc_discount_method: 'automatic', _svc_title: 'Free mug' },
    });
    expect(outcome.events).toHaveLength(1);
    const ingest = await proxied(t, shop, 'events', { method: 'POST', payload: eventsBody(outcome.events, 'v1') });
    expect(ingest.statusCode, ingest.body).toBe(200);
    expect(ingest.json()).toEqual({ ok: true, count: 1 });
  });

  it('a shop without live rules gets no gift, and another shop never sees these rules', async () => {
    const payload = await payloadOf(other);
    expect(payload.rules).toEqual([]);
    const cart = platformCart([{ key: '1:a', id: 1, product_id: 10, quantity: 1, price: 6000, properties: {} }]);
    await runCartPass(cart.port, { rules: compileRules(payload), shopper: { customerTags: [], loggedIn: false }, visitorId: 'v1', refusals: createRefusals(), collectCartTokens: false });
    expect(cart.calls).toEqual([]);
  });
});
