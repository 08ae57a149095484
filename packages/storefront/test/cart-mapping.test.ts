import { describe, expect, it } from 'vitest';
import { cartStateKey, compileRules, lineAttributes, merchandiseSubtotal, planCart, toEvaluationContext, toGid, toNumericId } from '../src/index.ts';
import { cart, giftItem, item, subtotalPayload, variantGid } from './support/carts.ts';

const shopper = { customerTags: [], loggedIn: false };

describe('toEvaluationContext (GET /cart.js → engine context)', () => {
  it('maps ids to gids, keeps minor-unit prices, line keys as ids and properties as attributes', () => {
    const ctx = toEvaluationContext(
      cart([
        item(111, {
          quantity: 2,
          price: 2500,
          final_price: 2000,
          properties: { Engraving: 'Hi', _unset: null, count: 3 },
          selling_plan_allocation: { selling_plan: { id: 77 } },
        }),
      ], { discount_codes: [{ code: 'SAVE10', applicable: true }, { code: 'NOPE', applicable: false }] }),
      { currency: 'usd', market: 'us', country: 'US', customerId: '42', customerTags: ['vip'], loggedIn: true },
      { summer: ['gid://shopify/Product/1110'] },
    );
    expect(ctx).toEqual({
      cart: {
        currency: 'USD',
        discountCodes: ['SAVE10'],
        lines: [
          {
            id: '111:k111',
            productId: 'gid://shopify/Product/1110',
            variantId: variantGid(111),
            quantity: 2,
            price: 2500,
            discountedPrice: 2000,
            sellingPlanId: 'gid://shopify/SellingPlan/77',
            attributes: { Engraving: 'Hi', count: '3' },
          },
        ],
      },
      customer: { id: '42', loggedIn: true, tags: ['vip'] },
      market: { handle: 'us', country: 'US' },
      collections: { summer: ['gid://shopify/Product/1110'] },
    });
  });

  it("takes the cart's currency without data-currency, and no market without data-market", () => {
    const ctx = toEvaluationContext(cart([], { currency: 'EUR' }), shopper);
    expect(ctx.cart.currency).toBe('EUR');
    expect(ctx.market).toBeNull();
    expect(ctx.customer).toEqual({ loggedIn: false, tags: [] });
  });

  it('keeps gift lines in the context (for removes) while the engine leaves them out of conditions', () => {
    const rich = cart([item(1, { price: 6000 }), giftItem(9001, 'r1')]);
    const poor = cart([item(1, { price: 100 }), giftItem(9001, 'r1', {}, { price: 999_999, quantity: 50 })]);
    const compiled = compileRules(subtotalPayload());
    expect(planCart(compiled, toEvaluationContext(rich, shopper)).operations).toEqual([]);
    // A gift line priced high does not lift the subtotal: the rule fails and the gift goes.
    expect(planCart(compiled, toEvaluationContext(poor, shopper)).operations).toEqual([{ type: 'remove', lineId: '9001:k9001', ruleId: 'r1' }]);
  });
});

describe('cart helpers', () => {
  it('lineAttributes turns values to text and drops unset ones', () => {
    expect(lineAttributes({ a: 'x', b: 2, c: true, d: null, e: { f: 1 } })).toEqual({ a: 'x', b: '2', c: 'true', e: '{"f":1}' });
    expect(lineAttributes(null)).toEqual({});
  });

  it('ids go both ways', () => {
    expect(toGid('ProductVariant', 5)).toBe(variantGid(5));
    expect(toGid('ProductVariant', variantGid(5))).toBe(variantGid(5));
    expect(toNumericId(variantGid(5))).toBe(5);
    expect(toNumericId('12')).toBe(12);
    expect(toNumericId('abc')).toBeNaN();
  });

  it('cartStateKey ignores gift lines and line order, and sees quantities and currency', () => {
    const base = cartStateKey(cart([item(1), item(2, { quantity: 2 })]));
    expect(cartStateKey(cart([item(2, { quantity: 2 }), item(1), giftItem(9001, 'r1')]))).toBe(base);
    expect(cartStateKey(cart([item(1), item(2, { quantity: 3 })]))).not.toBe(base);
    expect(cartStateKey(cart([item(1), item(2, { quantity: 2 })], { currency: 'EUR' }))).not.toBe(base);
  });

  it('merchandiseSubtotal counts non-gift lines, discounted prices on request', () => {
    const c = cart([item(1, { price: 1000, final_price: 800, quantity: 2 }), giftItem(9001, 'r1', {}, { price: 5000 })]);
    expect(merchandiseSubtotal(c)).toBe(2000);
    expect(merchandiseSubtotal(c, true)).toBe(1600);
  });
});
