import { describe, expect, it } from 'vitest';
import { MAX_ROUNDS, compileRules, createRefusals, runCartPass } from '../src/index.ts';
import type { AjaxCart, CartPort, CartRequest, RulesPayloadInput } from '../src/index.ts';
import { cart, giftItem, item, subtotalPayload, variantGid } from './support/carts.ts';

type Answer = 'ok' | 'refused' | 'failed' | 'ignored';

/**
 * An in-memory AJAX cart: adds append a line (key `<id>:<n>`), changes set a quantity.
 * `answer` decides per call: `refused` is a 422, `failed` a 500, `ignored` a 200 that
 * changes nothing (a cart that silently drops the line).
 */
function fakeCart(initial: AjaxCart, answer: (request: CartRequest) => Answer = () => 'ok') {
  const state = structuredClone(initial);
  const calls: CartRequest[] = [];
  let reads = 0;
  const port: CartPort = {
    async getCart() {
      reads++;
      return structuredClone(state);
    },
    async send(request) {
      calls.push(request);
      const kind = answer(request);
      if (kind === 'refused') return { kind: 'refused' };
      if (kind === 'failed') return { kind: 'failed', status: 500 };
      if (kind === 'ignored') return { kind: 'ok', body: null };
      if (request.kind === 'add') {
        for (const line of request.body.items) state.items.push(giftItem(line.id, line.properties._svc_rule_id ?? '', line.properties, { key: `${line.id}:${calls.length}`, quantity: line.quantity }));
      } else {
        const line = state.items.find((candidate) => candidate.key === request.body.id);
        if (line) line.quantity = request.body.quantity;
        state.items = state.items.filter((candidate) => candidate.quantity > 0);
      }
      return { kind: 'ok', body: { items: [{ product_title: 'Tote' }] } };
    },
  };
  return { port, state, calls, reads: () => reads };
}

const shopper = { customerTags: [], loggedIn: false };
const options = (payload: RulesPayloadInput = subtotalPayload(), extra: { collectCartTokens?: boolean } = {}) => ({
  rules: compileRules(payload),
  shopper,
  visitorId: 'v1',
  refusals: createRefusals(),
  collectCartTokens: extra.collectCartTokens ?? false,
});

describe('runCartPass', () => {
  it('adds the gift once the cart crosses the threshold, reports gift_added, and a second pass does nothing', async () => {
    const cartState = fakeCart(cart([item(1, { price: 6000 })]));
    const opts = options(subtotalPayload(), { collectCartTokens: true });
    const first = await runCartPass(cartState.port, opts);
    expect(cartState.calls.map((call) => call.kind)).toEqual(['add']);
    expect(first.changed).toBe(true);
    expect(first.operations).toEqual([]);
    expect(first.cart.items.map((line) => line.properties?._svc_rule_id)).toEqual([undefined, 'r1']);
    expect(first.events).toEqual([{ type: 'gift_added', campaignId: 'cmp_r1', ruleId: 'r1', variantId: variantGid(9001), cartToken: 'c1-token' }]);
    expect(first.added).toHaveLength(1);
    const second = await runCartPass(cartState.port, opts);
    expect(cartState.calls).toHaveLength(1);
    expect(second).toMatchObject({ changed: false, events: [], operations: [] });
  });

  it('removes the gift when the cart drops below, reporting gift_removed (no cart token unless allowed)', async () => {
    const cartState = fakeCart(cart([item(1, { price: 100 }), giftItem(9001, 'r1')]));
    const outcome = await runCartPass(cartState.port, options());
    expect(cartState.calls.map((call) => [call.kind, call.body])).toEqual([['remove', { id: '9001:k9001', quantity: 0 }]]);
    expect(outcome.events).toEqual([{ type: 'gift_removed', campaignId: 'cmp_r1', ruleId: 'r1', variantId: variantGid(9001) }]);
    expect(outcome.cart.items).toHaveLength(1);
  });

  it('tries a sold-out gift once per cart state: no retry on later passes until the shopper changes the cart', async () => {
    const cartState = fakeCart(cart([item(1, { price: 6000 })]), (request) => (request.kind === 'add' ? 'refused' : 'ok'));
    const opts = options();
    for (let pass = 0; pass < 5; pass++) {
      const outcome = await runCartPass(cartState.port, opts);
      expect(outcome.changed).toBe(false);
      expect(outcome.events).toEqual([]);
    }
    expect(cartState.calls).toHaveLength(1);
    const line = cartState.state.items[0];
    if (line) line.quantity = 2; // the shopper changes the cart
    await runCartPass(cartState.port, opts);
    expect(cartState.calls).toHaveLength(2);
  });

  it('falls back to the next gift in the same pass when the first is sold out and fallbackOnOOS is set', async () => {
    const payload = subtotalPayload({
      giftConfig: { type: 'fixed', fallbackOnOOS: true, gifts: [{ variantId: variantGid(9001), quantity: 1 }, { variantId: variantGid(9002), quantity: 1 }] },
    });
    const cartState = fakeCart(cart([item(1, { price: 6000 })]), (request) => (request.kind === 'add' && request.body.items[0]?.id === 9001 ? 'refused' : 'ok'));
    const outcome = await runCartPass(cartState.port, options(payload));
    expect(cartState.calls.map((call) => call.kind === 'add' && call.body.items[0]?.id)).toEqual([9001, 9002]);
    expect(outcome.events.map((event) => event.variantId)).toEqual([variantGid(9002)]);
  });

  it('stops at a failing cart call, and is bounded even when the cart silently drops every add', async () => {
    const failing = fakeCart(cart([item(1, { price: 6000 })]), () => 'failed');
    await runCartPass(failing.port, options());
    expect(failing.calls).toHaveLength(1);

    const dropping = fakeCart(cart([item(1, { price: 6000 })]), () => 'ignored');
    const outcome = await runCartPass(dropping.port, options());
    expect(dropping.calls).toHaveLength(MAX_ROUNDS);
    expect(dropping.reads()).toBe(MAX_ROUNDS + 1);
    expect(outcome.operations).toMatchObject([{ type: 'add' }]);
  });

  it('puts a gift line of a locking rule back to the gift quantity, and merges a duplicated gift line, without events', async () => {
    const twoTotes = subtotalPayload({ giftConfig: { type: 'fixed', gifts: [{ variantId: variantGid(9001), quantity: 2 }] } });
    const raised = fakeCart(cart([item(1, { price: 6000 }), giftItem(9001, 'r1', {}, { quantity: 5 })]));
    const outcome = await runCartPass(raised.port, options(twoTotes));
    expect(raised.calls.map((call) => [call.kind, call.body])).toEqual([['update', { id: '9001:k9001', quantity: 2 }]]);
    expect(outcome.events).toEqual([]);
    expect(outcome.changed).toBe(true);
    expect(outcome.cart.items.map((line) => line.quantity)).toEqual([1, 2]);

    // The same gift twice under two line keys (other properties): the second line goes.
    const doubled = fakeCart(cart([item(1, { price: 6000 }), giftItem(9001, 'r1'), giftItem(9001, 'r1', { _svc_auto: 'false' }, { key: '9001:other' })]));
    const merged = await runCartPass(doubled.port, options());
    expect(doubled.calls.map((call) => [call.kind, call.body])).toEqual([['remove', { id: '9001:other', quantity: 0 }]]);
    expect(merged.cart.items.map((line) => [line.key, line.quantity])).toEqual([['1:k1', 1], ['9001:k9001', 1]]);
    expect(merged.operations).toEqual([]);
  });

  it('leaves the quantity of a gift line alone when its rule does not lock it', async () => {
    const unlocked = fakeCart(cart([item(1, { price: 6000 }), giftItem(9001, 'r1', { _svc_lock_quantity: 'true' }, { quantity: 4 })]));
    await runCartPass(unlocked.port, options(subtotalPayload({ options: { lockQuantity: false } })));
    expect(unlocked.calls).toEqual([]);
  });

  it('leaves a customer-choice rule to the widget: a choose operation, no cart call', async () => {
    const cartState = fakeCart(cart([item(1, { price: 6000 })]));
    const outcome = await runCartPass(cartState.port, options(subtotalPayload({ options: { actionType: 'customer_choice' } })));
    expect(cartState.calls).toEqual([]);
    expect(outcome.operations).toMatchObject([{ type: 'choose', ruleId: 'r1', options: [{ variantId: variantGid(9001), quantity: 1 }] }]);
  });

  it('a limited rule gives to a signed-in customer below the limit, and removes its gift at the limit or without counts', async () => {
    const limited = subtotalPayload({ options: { discountTitle: 'Tote bag', maxPerCustomer: 2 } });
    const ada = { customerId: '501', customerTags: [], loggedIn: true };
    const pass = (redemptions: Record<string, number> | undefined, start = cart([item(1, { price: 6000 })])) => {
      const cartState = fakeCart(start);
      return runCartPass(cartState.port, { ...options(limited), shopper: ada, redemptions }).then((outcome) => ({ outcome, calls: cartState.calls }));
    };
    const below = await pass({ r1: 1 });
    expect(below.calls.map((call) => call.kind)).toEqual(['add']);
    expect(below.outcome.results[0]?.limit).toEqual({ maxPerCustomer: 2, used: 1, reason: 'max_per_customer_below' });
    for (const counts of [{ r1: 2 }, undefined]) {
      const withGift = cart([item(1, { price: 6000 }), giftItem(9001, 'r1')]);
      const { outcome, calls } = await pass(counts, withGift);
      expect(calls.map((call) => call.kind)).toEqual(['remove']);
      expect(outcome.events.map((event) => event.type)).toEqual(['gift_removed']);
    }
  });
});

