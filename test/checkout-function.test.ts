// The checkout discount function (CONTRACT "Checkout"), through its own entry: the built
// bundle run inside QuickJS, as the platform runs it. Table tests of the honest and abusive
// carts, fast-check properties and the 200-line cart. The configuration (size, exclusions, the
// compact tree codec) is in checkout-function-config.test.ts.
import fc from 'fast-check';
import { buildCheckoutConfig, runGiftDiscount } from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig, GiftFunctionInput } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunction } from '../scripts/build-function.ts';
import {
  campaignIdOf,
  discounted,
  functionInput,
  giftLine,
  giftVariant,
  hundredRuleConfig,
  mapRules,
  plainLine,
  ruleIdOf,
  shopPayload,
  twoHundredLineCart,
  variantGid,
} from './support/checkout-shop.ts';
import type { FunctionResult } from './support/checkout-shop.ts';
import { loadFunctionInQuickJs } from '../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../dev/checkout/quickjs-function.ts';

let fn: QuickJsFunction;
let bundle: string;
const config = hundredRuleConfig().config;

beforeAll(async () => {
  bundle = (await buildFunction({ write: false })).code;
  fn = await loadFunctionInQuickJs(bundle);
});
afterAll(() => fn.dispose());

const run = (input: GiftFunctionInput) => fn.run(input) as FunctionResult;

describe('the bundle', () => {
  it('uses nothing QuickJS lacks and carries no Zod', () => {
    expect(bundle).not.toMatch(/\b(setTimeout|setInterval|fetch|TextEncoder|TextDecoder|require|process\.)\b/);
    expect(bundle).not.toMatch(/zod/i);
  });
});

describe('honest carts get exactly the configured discount', () => {
  it('a free gift (percentage 100) targets the gift line', () => {
    const result = run(functionInput(config, [plainLine(3, '60.00'), giftLine(1, 3)]));
    expect(result).toEqual({
      operations: [
        {
          productDiscountsAdd: {
            candidates: [{ targets: [{ cartLine: { id: 'gid://shopify/CartLine/g1', quantity: 1 } }], value: { percentage: { value: '100' } }, message: 'Free gift' }],
            selectionStrategy: 'ALL',
          },
        },
      ],
    });
  });

  it('a fixed amount per item, converted at the platform rate in another currency', () => {
    expect(run(functionInput(config, [plainLine(2, '60.00'), giftLine(1, 2)])).operations[0]?.productDiscountsAdd.candidates[0]?.value).toEqual({
      fixedAmount: { amount: '5.00', appliesToEachItem: true },
    });
    const eur = run(functionInput(config, [plainLine(2, '60.00', 1, 'EUR'), giftLine(1, 2, { currencyCode: 'EUR' })], { rate: '0.9' }));
    expect(eur.operations[0]?.productDiscountsAdd.candidates[0]?.value).toEqual({ fixedAmount: { amount: '4.50', appliesToEachItem: true } });
  });

  it('a customer tag from the platform satisfies the OR branch', () => {
    expect(discounted(run(functionInput(config, [plainLine(150, '60.00'), giftLine(1, 3)], { tags: ['vip'] })))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
  });

  it('matches the engine in Node', () => {
    const input = functionInput(config, twoHundredLineCart());
    expect(run(input)).toEqual(runGiftDiscount(input));
  });

  it('discounts the four gift lines of a 200-line cart against 100 rules', () => {
    expect(discounted(run(functionInput(config, twoHundredLineCart())))).toEqual({
      'gid://shopify/CartLine/g3': 1,
      'gid://shopify/CartLine/g40': 1,
      'gid://shopify/CartLine/g77': 1,
      'gid://shopify/CartLine/g95': 1,
    });
  });
});

describe('a shopper gets nothing by forging', () => {
  const withoutRule3 = buildCheckoutConfig({ ...shopPayload(100), rules: shopPayload(100).rules.filter((rule) => rule.id !== ruleIdOf(3)) }).config;
  const table: Array<[string, GiftFunctionInput]> = [
    ['the attribute copied onto a non-gift line', functionInput(config, [plainLine(3, '60.00'), giftLine(1, 3, { variant: variantGid(7) })])],
    ['a gift variant of another rule', functionInput(config, [plainLine(3, '60.00'), giftLine(1, 3, { variant: giftVariant(4) })])],
    ['a rule that no longer matches once the gift is excluded', functionInput(config, [plainLine(3, '10.00'), giftLine(1, 3, { price: '100.00' })])],
    ['a disabled or deleted campaign (not in the configuration)', functionInput(withoutRule3, [plainLine(3, '60.00'), giftLine(1, 3)])],
    ['a foreign currency without an override', functionInput(config, [plainLine(3, '600.00', 1, 'GBP'), giftLine(1, 3, { currencyCode: 'GBP' })])],
    ['another campaign named on the line', functionInput(config, [plainLine(3, '60.00'), giftLine(1, 3, { campaign: campaignIdOf(5) })])],
    ['an unknown rule id', functionInput(config, [plainLine(3, '60.00'), giftLine(1, 3, { ruleId: 'rul_forged' })])],
    ['a malformed configuration', functionInput({ v: 2 } as unknown as CheckoutFunctionConfig, [plainLine(3, '60.00'), giftLine(1, 3)])],
  ];
  it.each(table)('%s: no discount', (_name, input) => {
    expect(run(input)).toEqual({ operations: [] });
  });

  it('a quantity above the gift quantity: the excess pays full price', () => {
    // Rule 4 gives one unit; rule 3 two.
    expect(discounted(run(functionInput(config, [plainLine(4, '60.00'), giftLine(1, 4, { quantity: 3 })])))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
    expect(
      discounted(run(functionInput(config, [plainLine(3, '60.00'), giftLine(1, 3, { quantity: 1 }), giftLine(2, 3, { quantity: 5 }), giftLine(3, 3)]))),
    ).toEqual({ 'gid://shopify/CartLine/g1': 1, 'gid://shopify/CartLine/g2': 1 });
  });
});

describe('repeatable gifts (giftConfig.per)', () => {
  // Rule 0 of a one-rule shop, repeated: one gift set (gift quantity 1) per 2 non-gift items, at most 3.
  const shop = shopPayload(1);
  const [first] = shop.rules;
  if (first === undefined) throw new Error('fixture');
  const perConfig = buildCheckoutConfig({ ...shop, rules: [{ ...first, giftConfig: { ...first.giftConfig, per: { every: 2, of: 'items', max: 3 } } }] }).config;
  it.each([
    ['2 items: one set', 2, 5, 1],
    ['5 items: two sets', 5, 5, 2],
    ['9 items: capped at three', 9, 5, 3],
    ['1 item: no set, nothing', 1, 5, undefined],
    ['7 items, 2 gift units claimed: both', 7, 2, 2],
  ])('%s', (_name, items, claimed, units) => {
    const result = run(functionInput(perConfig, [plainLine(0, '60.00', items), giftLine(1, 0, { quantity: claimed })]));
    expect(discounted(result)['gid://shopify/CartLine/g1']).toBe(units);
    expect(result).toEqual(runGiftDiscount(functionInput(perConfig, [plainLine(0, '60.00', items), giftLine(1, 0, { quantity: claimed })])));
  });
  it('a malformed per in the configuration fails closed', () => {
    const broken = mapRules(perConfig, (r) => [...r.slice(0, 7), [0, 0, 3]]);
    expect(run(functionInput(broken, [plainLine(0, '60.00', 4), giftLine(1, 0)]))).toEqual({ operations: [] });
  });
});

describe('stacking (priority, exclusive, highest_tier)', () => {
  // Rules 0..2 of campaign 0 need product r in the cart (subtotal 50.00 + r).
  const shop = shopPayload(3);
  const withOptions = (options: Array<Record<string, unknown>>, stacking?: 'highest_tier') =>
    buildCheckoutConfig({
      ...shop,
      rules: shop.rules.map((r, i) => ({ ...r, options: { ...r.options, ...options[i] } })),
      shopSettings: stacking === undefined ? {} : { engine: { stacking } },
    }).config;
  const cart = [plainLine(0, '60.00'), plainLine(1, '60.00'), plainLine(2, '60.00'), giftLine(0, 0), giftLine(1, 1), giftLine(2, 2)];
  const ids = (config: CheckoutFunctionConfig) => Object.keys(discounted(run(functionInput(config, cart)))).sort();
  it.each([
    ['no stacking fields: every claimed rule', withOptions([]), ['g0', 'g1', 'g2']],
    ['rule 1 exclusive: rule 2 after it loses, rule 0 (earlier, equal priority) still gives', withOptions([{}, { exclusive: true }]), ['g0', 'g1']],
    ['rule 2 exclusive with priority 5: the others lose', withOptions([{}, {}, { priority: 5, exclusive: true }]), ['g2']],
    ['highest_tier: the last rule of the campaign', withOptions([], 'highest_tier'), ['g2']],
    ['highest_tier with priorities: the highest', withOptions([{ priority: 3 }], 'highest_tier'), ['g0']],
  ])('%s', (_name, config, expected) => {
    expect(ids(config)).toEqual(expected.map((g) => `gid://shopify/CartLine/${g}`));
    expect(run(functionInput(config, cart))).toEqual(runGiftDiscount(functionInput(config, cart)));
  });
  it('an exclusive rule whose gift line is not in the cart still suppresses', () => {
    const config = withOptions([{}, {}, { priority: 5, exclusive: true }]);
    expect(discounted(run(functionInput(config, cart.filter((l) => l.id !== 'gid://shopify/CartLine/g2'))))).toEqual({});
  });
  it('a malformed stack entry fails closed', () => {
    const config = withOptions([{ priority: 2 }]);
    const broken = mapRules(config, (r, i) => (i === 0 ? [...r.slice(0, 8), ['x', 2]] : r));
    expect(ids(broken)).toEqual(['gid://shopify/CartLine/g1', 'gid://shopify/CartLine/g2']);
  });
});

describe('per-customer limits (maxPerCustomer, the customer metafield)', () => {
  // Rule 0 (campaign 0) may be redeemed twice per customer; rule 1 has no limit.
  const shop = shopPayload(2);
  const limited = buildCheckoutConfig({ ...shop, rules: shop.rules.map((r, i) => (i === 0 ? { ...r, options: { ...r.options, maxPerCustomer: 2 } } : r)) }).config;
  const cart = [plainLine(0, '60.00'), plainLine(1, '60.00'), giftLine(0, 0), giftLine(1, 1)];
  const withBuyer = (buyer: NonNullable<GiftFunctionInput['cart']['buyerIdentity']> | null) => {
    const input = functionInput(limited, cart);
    return { ...input, cart: { ...input.cart, buyerIdentity: buyer } };
  };
  const ada = (metafield: { value: string } | null, isAuthenticated = true) => withBuyer({ isAuthenticated, customer: { id: 'gid://shopify/Customer/501', hasTags: [], metafield } });
  const ids = (input: GiftFunctionInput) => Object.keys(discounted(run(input))).sort();
  const both = ['gid://shopify/CartLine/g0', 'gid://shopify/CartLine/g1'];
  const unlimitedOnly = ['gid://shopify/CartLine/g1'];
  it.each([
    ['under the limit (1 of 2)', ada({ value: JSON.stringify({ [ruleIdOf(0)]: 1 }) }), both],
    ['no metafield yet: 0 redemptions', ada(null), both],
    ['at the limit (2 of 2)', ada({ value: JSON.stringify({ [ruleIdOf(0)]: 2 }) }), unlimitedOnly],
    ['over the limit (5 of 2)', ada({ value: JSON.stringify({ [ruleIdOf(0)]: 5, [ruleIdOf(1)]: 9 }) }), unlimitedOnly],
    ['no buyer customer', withBuyer(null), unlimitedOnly],
    ['a customer who is not signed in', ada(null, false), unlimitedOnly],
    ['malformed metafield: not JSON', ada({ value: '{"rul_' }), unlimitedOnly],
    ['malformed metafield: a count that is not a count', ada({ value: JSON.stringify({ [ruleIdOf(0)]: '1' }) }), unlimitedOnly],
  ])('%s', (_name, input, expected) => {
    expect(ids(input)).toEqual(expected);
    expect(run(input)).toEqual(runGiftDiscount(input));
  });
  it('the 100-rule fixture without limits keeps its size; a limit adds its number', () => {
    const plainBytes = hundredRuleConfig().bytes;
    const withOne = buildCheckoutConfig({ ...shopPayload(100), rules: shopPayload(100).rules.map((r, i) => (i === 0 ? { ...r, options: { ...r.options, maxPerCustomer: 2 } } : r)) });
    console.log(`100-rule shop: ${plainBytes} bytes; with one maxPerCustomer: ${withOne.bytes} bytes`);
    // 9,826 before ANDs lost their "&" when their first child is an array (compact-tree.ts).
    // Format 2's `"key":"…"` takes the bytes of format 1's `["key",…]`.
    expect(plainBytes).toBe(9426);
    // ",100,0,null,null,null,2": the defaults before it are written out, 23 bytes at most for a 1-digit limit.
    expect(withOne.bytes - plainBytes).toBe(23);
  });
});

describe('properties, through QuickJS', () => {
  const plain = fc.record({ n: fc.integer({ min: 0, max: 120 }), cents: fc.integer({ min: 0, max: 9000 }), quantity: fc.integer({ min: 1, max: 4 }) });
  const toLine = (p: { n: number; cents: number; quantity: number }) => plainLine(p.n, (p.cents / 100).toFixed(2), p.quantity);
  const claim = fc.record({ rule: fc.integer({ min: 0, max: 99 }), quantity: fc.integer({ min: 1, max: 5 }) });

  it('a forged attribute on a non-gift variant is never discounted', () => {
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 12 }), claim, fc.integer({ min: 0, max: 120 }), (lines, forged, n) => {
        const line = giftLine(999, forged.rule, { variant: variantGid(n), quantity: forged.quantity });
        expect(discounted(run(functionInput(config, [...lines.map(toLine), line])))[line.id]).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('never more units than the gift quantity per rule, and only when the rule matches without gifts', () => {
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 12 }), fc.array(claim, { maxLength: 6 }), (lines, claims) => {
        const gifts = claims.map((c, i) => giftLine(i, c.rule, { quantity: c.quantity }));
        const input = functionInput(config, [...lines.map(toLine), ...gifts]);
        const result = discounted(run(input));
        const subtotal = lines.reduce((sum, p) => sum + p.cents * p.quantity, 0);
        for (const rule of new Set(claims.map((c) => c.rule))) {
          const units = gifts.filter((_, i) => claims[i]?.rule === rule).reduce((sum, g) => sum + (result[g.id] ?? 0), 0);
          expect(units).toBeLessThanOrEqual(1 + (rule % 2));
          const matches = subtotal >= 5000 + rule * 100 && lines.some((p) => p.n === rule);
          if (!matches) expect(units).toBe(0);
          else expect(units).toBe(Math.min(1 + (rule % 2), claims.filter((c) => c.rule === rule).reduce((s, c) => s + c.quantity, 0)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('QuickJS and Node agree', () => {
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 12 }), fc.array(claim, { maxLength: 4 }), (lines, claims) => {
        const input = functionInput(config, [...lines.map(toLine), ...claims.map((c, i) => giftLine(i, c.rule, { quantity: c.quantity }))]);
        expect(run(input)).toEqual(runGiftDiscount(input));
      }),
      { numRuns: 40 },
    );
  });
});
