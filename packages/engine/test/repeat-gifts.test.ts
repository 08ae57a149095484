// Repeatable gifts (giftConfig.per, issue 13 part 4): table tests of the schema, the planner
// and the checkout function (in Node; test/checkout-function.test.ts runs it in QuickJS), and
// the laws "raising max never removes a gift" and "planning twice adds nothing".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCheckoutConfig, runGiftDiscount } from '../src/checkout-function.ts';
import type { GiftFunctionLine } from '../src/checkout-function.ts';
import type { CartLine, GiftPer } from '../src/index.ts';
import { applyOperations, giftConfigSchema, planCart } from '../src/index.ts';
import { context, line } from './support/contexts.ts';
import { payload, rule } from './support/payloads.ts';
import { gid } from './support/trees.ts';

const always = { type: 'cart.item_count_gte' as const, value: 1 };
const gift = { variantId: gid.variant(9001), quantity: 2 };
const repeating = (per: GiftPer, extra: Record<string, unknown> = {}) =>
  payload([rule('r1', always, { giftConfig: { type: 'fixed', gifts: [gift], per }, ...extra })]);
const items = (quantity: number, price = 1000) => line({ id: 'l1', quantity, price });

describe('giftConfig.per schema', () => {
  const base = { type: 'fixed', gifts: [gift] };
  it('accepts items and subtotal steps, with currency overrides', () => {
    expect(giftConfigSchema.parse({ ...base, per: { every: 3, of: 'items', max: 5 } }).per).toEqual({ every: 3, of: 'items', max: 5 });
    expect(giftConfigSchema.parse({ ...base, per: { every: 5000, of: 'subtotal', max: 100, currencyOverrides: { EUR: 4500 } } }).per?.currencyOverrides).toEqual({ EUR: 4500 });
  });
  it.each([
    ['every 0', { every: 0, of: 'items', max: 1 }, ['per', 'every']],
    ['fractional every', { every: 1.5, of: 'items', max: 1 }, ['per', 'every']],
    ['max 0', { every: 1, of: 'items', max: 0 }, ['per', 'max']],
    ['max 101', { every: 1, of: 'items', max: 101 }, ['per', 'max']],
    ['unknown of', { every: 1, of: 'orders', max: 1 }, ['per', 'of']],
    ['missing max', { every: 1, of: 'items' }, ['per', 'max']],
    ['a bad override', { every: 1, of: 'subtotal', max: 1, currencyOverrides: { EUR: 0 } }, ['per', 'currencyOverrides', 'EUR']],
  ])('rejects %s at its path', (_name, per, path) => {
    expect(giftConfigSchema.safeParse({ ...base, per }).error?.issues[0]?.path).toEqual(path);
  });
});

describe('planCart with a repeatable gift', () => {
  it.each([
    ['per 3 items, 7 items: 2 sets', { every: 3, of: 'items', max: 5 } as const, [items(7)], 2, 'per_sets'],
    ['per 3 items, capped at 1', { every: 3, of: 'items', max: 1 } as const, [items(9)], 1, 'per_sets_capped'],
    ['per 50.00 of subtotal, 120.00: 2 sets', { every: 5000, of: 'subtotal', max: 10 } as const, [items(12)], 2, 'per_sets'],
    ['per 50.00, 3 × 10.00 × 4 lines', { every: 5000, of: 'subtotal', max: 10 } as const, [items(3), line({ id: 'l2', quantity: 4, price: 1000 })], 1, 'per_sets'],
  ])('%s', (_name, per, lines, sets, reason) => {
    const plan = planCart(repeating(per), context(lines));
    expect(plan.results[0]?.repeat).toMatchObject({ sets, reason });
    expect(plan.operations).toEqual([expect.objectContaining({ type: 'add', variantId: gift.variantId, quantity: gift.quantity * sets, sets })]);
  });

  it('0 sets: nothing added, and a line already there is removed', () => {
    const rules = repeating({ every: 3, of: 'items', max: 5 });
    const plan = planCart(rules, context([items(2)]));
    expect(plan.results[0]).toMatchObject({ matched: true, repeat: { sets: 0, reason: 'per_below_every', counted: 2, every: 3 } });
    expect(plan.operations).toEqual([]);
    const withGift = applyOperations(context([items(3)]).cart, planCart(rules, context([items(3)])).operations);
    const shrunk = { cart: { ...withGift, lines: withGift.lines.map((l) => (l.id === 'l1' ? { ...l, quantity: 2 } : l)) } };
    expect(planCart(rules, shrunk).operations).toEqual([{ type: 'remove', lineId: 'svc-gift-1-' + gift.variantId, ruleId: 'r1' }]);
  });

  it('a cart that grows or shrinks gets its gift line replaced with the new quantity', () => {
    const rules = repeating({ every: 2, of: 'items', max: 10 });
    let cart = applyOperations(context([items(2)]).cart, planCart(rules, context([items(2)])).operations);
    expect(cart.lines.find((l) => l.variantId === gift.variantId)?.quantity).toBe(2);
    cart = { ...cart, lines: cart.lines.map((l) => (l.id === 'l1' ? { ...l, quantity: 7 } : l)) };
    const grow = planCart(rules, { cart });
    expect(grow.operations.map((op) => op.type)).toEqual(['remove', 'add']);
    expect(grow.operations[1]).toMatchObject({ quantity: 6, sets: 3, attributes: { _svc_auto: 'true', _svc_rule_id: 'r1' } });
    cart = applyOperations(cart, grow.operations);
    expect(planCart(rules, { cart }).operations).toEqual([]);
  });

  it('customer choice offers each gift × sets', () => {
    const rules = payload([
      rule('r1', always, {
        giftConfig: { type: 'fixed', gifts: [gift, { variantId: gid.variant(9002), quantity: 1 }], per: { every: 1, of: 'items', max: 3 } },
        options: { actionType: 'customer_choice' },
      }),
    ]);
    const [choose] = planCart(rules, context([items(5)])).operations;
    expect(choose).toMatchObject({ type: 'choose', sets: 3, options: [{ quantity: 6 }, { quantity: 3 }] });
  });

  it('a subtotal step resolves like a threshold: override of the cart currency, else none in a foreign currency', () => {
    const per = { every: 5000, of: 'subtotal', max: 10, currencyOverrides: { eur: 4000 } } as const;
    const eur = planCart(repeating(per), { cart: { currency: 'EUR', lines: [items(9)] } });
    expect(eur.results[0]?.repeat).toMatchObject({ sets: 2, every: 4000 });
    const gbp = planCart(repeating(per), { cart: { currency: 'GBP', lines: [items(9)] } });
    expect(gbp.results[0]?.repeat).toMatchObject({ sets: 0, reason: 'foreign_currency_no_override' });
    expect(gbp.operations).toEqual([]);
  });

  it('gift lines never count towards the sets', () => {
    const rules = repeating({ every: 2, of: 'items', max: 10 });
    const giftLine: CartLine = line({ id: 'g', quantity: 50, price: 9999, attributes: { _svc_campaign_id: 'cmp_x', _svc_rule_id: 'gone' } });
    expect(planCart(rules, context([items(4), giftLine])).results[0]?.repeat?.sets).toBe(2);
  });
});

const cartArb = fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 9 }), price: fc.integer({ min: 0, max: 9000 }) }), { maxLength: 6 });
const perArb = fc.record({
  every: fc.integer({ min: 1, max: 12_000 }),
  of: fc.constantFrom('items' as const, 'subtotal' as const),
  max: fc.integer({ min: 1, max: 99 }),
});
const toLines = (lines: Array<{ quantity: number; price: number }>) => lines.map((l, i) => line({ id: `l${i}`, ...l }));
const giftUnits = (operations: ReturnType<typeof planCart>['operations']) =>
  operations.reduce((sum, op) => sum + (op.type === 'add' ? op.quantity : 0), 0);

describe('laws', () => {
  it('raising max never removes a gift', () => {
    fc.assert(
      fc.property(cartArb, perArb, fc.integer({ min: 0, max: 50 }), (lines, per, raise) => {
        const ctx = context(toLines(lines));
        const low = giftUnits(planCart(repeating(per), ctx).operations);
        const high = giftUnits(planCart(repeating({ ...per, max: Math.min(100, per.max + raise) }), ctx).operations);
        expect(high).toBeGreaterThanOrEqual(low);
      }),
      { numRuns: 300 },
    );
  });

  it('applying the plan and planning again yields no operations', () => {
    fc.assert(
      fc.property(cartArb, perArb, cartArb, (first, per, second) => {
        const rules = repeating(per);
        const once = applyOperations(context(toLines(first)).cart, planCart(rules, context(toLines(first))).operations);
        expect(planCart(rules, { cart: once }).operations).toEqual([]);
        // The shopper changes the cart: one more plan settles it again.
        const changed = { ...once, lines: [...once.lines.filter((l) => l.attributes !== undefined), ...toLines(second)] };
        const settled = applyOperations(changed, planCart(rules, { cart: changed }).operations);
        expect(planCart(rules, { cart: settled }).operations).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('the checkout function discounts exactly the units the planner added, never more', () => {
    fc.assert(
      fc.property(cartArb, perArb, fc.integer({ min: 0, max: 400 }), (lines, per, claimed) => {
        const rules = repeating(per);
        const planned = giftUnits(planCart(rules, context(toLines(lines))).operations);
        const { config } = buildCheckoutConfig({ ...rules, rules: rules.rules.map((r) => ({ ...r, campaignId: r.campaignId ?? '' })) });
        const input = functionInput(config, lines, claimed);
        const discounted = runGiftDiscount(input).operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => t.cartLine.quantity)));
        expect(discounted.reduce((a, b) => a + b, 0)).toBe(Math.min(planned, claimed));
      }),
      { numRuns: 300 },
    );
  });
});

function functionInput(config: ReturnType<typeof buildCheckoutConfig>['config'], lines: Array<{ quantity: number; price: number }>, giftQuantity: number) {
  const cartLines: GiftFunctionLine[] = lines.map((l, i) => ({
    id: `gid://shopify/CartLine/${i}`,
    quantity: l.quantity,
    cost: { amountPerQuantity: { amount: (l.price / 100).toFixed(2), currencyCode: 'USD' } },
    merchandise: { id: gid.variant(11), product: { id: gid.product(1) } },
  }));
  cartLines.push({
    id: 'gid://shopify/CartLine/gift',
    quantity: giftQuantity,
    cost: { amountPerQuantity: { amount: '20.00', currencyCode: 'USD' } },
    merchandise: { id: gift.variantId, product: { id: gid.product(900) } },
    campaignId: { value: 'cmp_r1' },
    ruleId: { value: 'r1' },
  });
  return { cart: { lines: cartLines }, discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } } };
}
