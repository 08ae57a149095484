import { describe, expect, it } from 'vitest';
import type { CheckoutCartLine, RulesPayloadInput } from '../src/index.ts';
import { runCheckoutDiscount, toDecimalString, toMinorUnits } from '../src/index.ts';
import { payload, rule } from './support/payloads.ts';

const always = { type: 'cart.subtotal_gte' as const, value: 0 };

function cartLine(id: string, amount: string, extra: Partial<CheckoutCartLine> = {}, quantity = 1): CheckoutCartLine {
  return {
    id,
    quantity,
    cost: { amountPerQuantity: { amount, currencyCode: 'USD' } },
    merchandise: { __typename: 'ProductVariant', id: `gid://shopify/ProductVariant/${id}`, product: { id: 'gid://shopify/Product/1' } },
    ...extra,
  };
}
const gift = (id: string, ruleId: string, amount = '25.00', quantity = 1) =>
  cartLine(id, amount, { campaignId: { value: 'cmp' }, ruleId: { value: ruleId } }, quantity);

const rules = (checkout: NonNullable<RulesPayloadInput['shopSettings']>['checkout'] = {}): RulesPayloadInput =>
  payload(
    [
      rule('free', always, { options: { discountTitle: 'Free tote' } }),
      rule('half', always, { options: { discountValue: 50, discountTitle: 'Half off' } }),
      rule('fixed', always, { options: { discountType: 'fixed_amount', discountValue: 500, discountTitle: '$5 off' } }),
    ],
    { shopSettings: { checkout } },
  );

describe('runCheckoutDiscount', () => {
  it('discounts gift lines per their rule, grouped by rule; ignores other lines', () => {
    const result = runCheckoutDiscount(
      {
        cart: {
          lines: [
            cartLine('a', '40.00'),
            gift('g1', 'free'),
            gift('g2', 'free'),
            gift('g3', 'half'),
            gift('g4', 'fixed', '25.00', 2),
            gift('g5', 'unknown-rule'),
            cartLine('g6', '10.00', { campaignId: { value: 'cmp' } }),
          ],
        },
      },
      rules(),
    );
    expect(result).toEqual({
      discounts: [
        { targets: [{ cartLine: { id: 'g1' } }, { cartLine: { id: 'g2' } }], value: { percentage: { value: '100' } }, message: 'Free tote' },
        { targets: [{ cartLine: { id: 'g3' } }], value: { percentage: { value: '50' } }, message: 'Half off' },
        { targets: [{ cartLine: { id: 'g4' } }], value: { fixedAmount: { amount: '5.00', appliesToEachItem: true } }, message: '$5 off' },
      ],
      discountApplicationStrategy: 'ALL',
      errors: [],
      blocked: false,
    });
  });

  it('reads the attributes from an attributes list or an unaliased attribute too', () => {
    const listed = cartLine('g1', '9.00', { attributes: [{ key: '_svc_campaign_id', value: 'cmp' }, { key: '_svc_rule_id', value: 'free' }] });
    const single = cartLine('g2', '9.00', { attribute: { key: '_svc_campaign_id', value: 'cmp' }, attributes: [{ key: '_svc_rule_id', value: 'half' }] });
    const result = runCheckoutDiscount({ cart: { lines: [listed, single] } }, rules());
    expect(result.discounts.map((d) => d.targets[0]?.cartLine.id)).toEqual(['g1', 'g2']);
  });

  it('does not apply fixed amounts in a foreign currency', () => {
    const line = gift('g1', 'fixed');
    line.cost.amountPerQuantity.currencyCode = 'EUR';
    expect(runCheckoutDiscount({ cart: { lines: [line] } }, rules()).discounts).toEqual([]);
  });

  it('blocks a cart whose total after discounts is zero', () => {
    const input = { cart: { lines: [gift('g1', 'free')] } };
    expect(runCheckoutDiscount(input, rules({ blockZeroValueCart: true })).errors.map((e) => e.code)).toEqual(['zero_value_cart']);
    expect(runCheckoutDiscount(input, rules()).blocked).toBe(false);
    const withPaid = { cart: { lines: [gift('g1', 'free'), cartLine('a', '1.00')] } };
    expect(runCheckoutDiscount(withPaid, rules({ blockZeroValueCart: true })).blocked).toBe(false);
  });

  it('blocks gift-only carts; with stripZeroPriceItems a free non-gift line does not count', () => {
    const input = { cart: { lines: [gift('g1', 'half'), cartLine('sample', '0.00')] } };
    expect(runCheckoutDiscount(input, rules({ blockGiftOnlyCarts: true })).blocked).toBe(false);
    expect(runCheckoutDiscount(input, rules({ blockGiftOnlyCarts: true, stripZeroPriceItems: true })).errors).toEqual([
      { code: 'gift_only_cart', localizedMessage: expect.any(String), target: '$.cart' },
    ]);
    expect(runCheckoutDiscount({ cart: { lines: [] } }, rules({ blockGiftOnlyCarts: true, blockZeroValueCart: true })).blocked).toBe(false);
  });

  it('gives zero-priced gift lines no target with stripZeroPriceItems', () => {
    const input = { cart: { lines: [gift('g1', 'free', '0.00'), gift('g2', 'free')] } };
    expect(runCheckoutDiscount(input, rules({ stripZeroPriceItems: true })).discounts[0]?.targets).toEqual([{ cartLine: { id: 'g2' } }]);
    expect(runCheckoutDiscount(input, rules()).discounts[0]?.targets).toHaveLength(2);
  });

  it('blocks gift carts below the minimum non-gift subtotal with the configured message', () => {
    const settings = { minOrderTotalCents: 5000, minOrderTotalMessage: 'Spend $50 to get the gift' };
    const below = { cart: { lines: [cartLine('a', '20.00', {}, 2), gift('g1', 'free', '100.00')] } };
    expect(runCheckoutDiscount(below, rules(settings)).errors).toEqual([
      { code: 'min_order_total', localizedMessage: 'Spend $50 to get the gift', target: '$.cart' },
    ]);
    const reached = { cart: { lines: [cartLine('a', '25.00', {}, 2), gift('g1', 'free')] } };
    expect(runCheckoutDiscount(reached, rules(settings)).blocked).toBe(false);
    const noGift = { cart: { lines: [cartLine('a', '1.00')] } };
    expect(runCheckoutDiscount(noGift, rules(settings)).blocked).toBe(false);
  });
});

describe('money', () => {
  it.each([
    ['12.34', 'USD', 1234],
    ['1000', 'JPY', 1000],
    ['1.234', 'KWD', 1234],
    ['0.1', 'USD', 10],
  ])('%s %s -> %i minor units', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
    expect(toMinorUnits(toDecimalString(minor, currency), currency)).toBe(minor);
  });
});
