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

  it('puts a changed _svc_lock_quantity gift line back to 1, and leaves unlocked or quantity-1 lines alone', () => {
    const c = cart([
      item(1, { price: 6000 }),
      giftItem(9001, 'r1', { _svc_lock_quantity: 'true' }, { quantity: 3 }),
      giftItem(9002, 'r2', {}, { quantity: 4 }),
      giftItem(9003, 'r3', { _svc_lock_quantity: 'true' }),
    ]);
    expect(cartRequests([], c)).toEqual([
      { kind: 'lock', path: '/cart/change.js', body: { id: '9001:k9001', quantity: 1 }, gift: { ruleId: 'r1', campaignId: 'cmp_r1', variantId: '9001' } },
    ]);
  });

  it('does not lock a line it removes, skips removes of lines no longer in the cart, and leaves chooses to the widget', () => {
    const c = cart([giftItem(9001, 'r1', { _svc_lock_quantity: 'true' }, { quantity: 3 })]);
    const operations: CartOperation[] = [
      { type: 'remove', lineId: '9001:k9001', ruleId: 'r1' },
      { type: 'remove', lineId: 'gone:key', ruleId: 'r9' },
      { type: 'choose', ruleId: 'r2', campaignId: 'cmp_r2', options: [{ variantId: variantGid(5), quantity: 1 }], attributes: {} },
    ];
    expect(cartRequests(operations, c).map((request) => [request.kind, request.body])).toEqual([['remove', { id: '9001:k9001', quantity: 0 }]]);
  });
});
