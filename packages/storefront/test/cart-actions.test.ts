import { describe, expect, it } from 'vitest';
import { cartRequests, compileRules, planCart, toEvaluationContext } from '../src/index.ts';
import type { CartOperation } from '../src/index.ts';
import { cart, giftItem, item, subtotalPayload, variantGid } from './support/carts.ts';

const shopper = { customerTags: [], loggedIn: false };

describe('cartRequests (operations → AJAX Cart API calls)', () => {
  it('adds a gift with POST /cart/add.js: numeric variant id, quantity and the gift attributes as properties', () => {
    const c = cart([item(1, { price: 6000 })]);
    const { operations } = planCart(compileRules(subtotalPayload()), toEvaluationContext(c, shopper));
    expect(cartRequests(operations, c)).toEqual([
      {
        kind: 'add',
        path: '/cart/add.js',
        body: {
          items: [
            {
              id: 9001,
              quantity: 1,
              properties: {
                _svc_campaign_id: 'cmp_r1',
                _svc_rule_id: 'r1',
                _svc_auto: 'true',
                _svc_discount_method: 'automatic',
                _svc_title: 'Tote bag',
                _svc_lock_quantity: 'true',
              },
            },
          ],
        },
        gift: { ruleId: 'r1', campaignId: 'cmp_r1', variantId: variantGid(9001) },
      },
    ]);
  });

  it('removes a gift with POST /cart/change.js { id: <line key>, quantity: 0 }', () => {
    const c = cart([item(1, { price: 100 }), giftItem(9001, 'r1')]);
    const { operations } = planCart(compileRules(subtotalPayload()), toEvaluationContext(c, shopper));
    expect(cartRequests(operations, c)).toEqual([
      { kind: 'remove', path: '/cart/change.js', body: { id: '9001:k9001', quantity: 0 }, gift: { ruleId: 'r1', campaignId: 'cmp_r1', variantId: '9001' } },
    ]);
  });

  it('puts a gift line of a locking rule back to its quantity with POST /cart/change.js, whatever the line says', () => {
    const c = cart([
      item(1, { price: 6000 }),
      giftItem(9001, 'r1', {}, { quantity: 3 }),
    ]);
    const { operations } = planCart(compileRules(subtotalPayload()), toEvaluationContext(c, shopper));
    expect(cartRequests(operations, c)).toEqual([
      { kind: 'update', path: '/cart/change.js', body: { id: '9001:k9001', quantity: 1 }, gift: { ruleId: 'r1', campaignId: 'cmp_r1', variantId: '9001' } },
    ]);
    // The rule decides, not the attribute: an unlocked rule's line keeps what the shopper chose.
    const unlocked = cart([item(1, { price: 6000 }), giftItem(9001, 'r1', { _svc_lock_quantity: 'true' }, { quantity: 3 })]);
    const plan = planCart(compileRules(subtotalPayload({ options: { lockQuantity: false } })), toEvaluationContext(unlocked, shopper));
    expect(cartRequests(plan.operations, unlocked)).toEqual([]);
  });

  it('sends removes, updates and adds in the plan\'s order, skips lines no longer in the cart, and leaves chooses to the widget', () => {
    const c = cart([giftItem(9001, 'r1', {}, { quantity: 3 }), giftItem(9002, 'r3', {}, { quantity: 2 })]);
    const operations: CartOperation[] = [
      { type: 'remove', lineId: '9001:k9001', ruleId: 'r1' },
      { type: 'remove', lineId: 'gone:key', ruleId: 'r9' },
      { type: 'update', lineId: '9002:k9002', ruleId: 'r3', quantity: 1 },
      { type: 'update', lineId: 'gone:key', ruleId: 'r3', quantity: 1 },
      { type: 'add', variantId: variantGid(5), quantity: 1, attributes: { _svc_campaign_id: 'cmp_r4', _svc_rule_id: 'r4' } },
      { type: 'choose', ruleId: 'r2', campaignId: 'cmp_r2', options: [{ variantId: variantGid(5), quantity: 1 }], attributes: {} },
    ];
    expect(cartRequests(operations, c).map((request) => [request.kind, request.path, request.kind === 'add' ? request.body.items[0]?.id : request.body])).toEqual([
      ['remove', '/cart/change.js', { id: '9001:k9001', quantity: 0 }],
      ['update', '/cart/change.js', { id: '9002:k9002', quantity: 1 }],
      ['add', '/cart/add.js', 5],
    ]);
  });
});
