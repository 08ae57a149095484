import fc from 'fast-check';
import type { CartLine, ConditionNode, EvaluationContext } from '../../src/index.ts';
import { gid } from './trees.ts';

// Small id and value universes so random trees and carts actually meet.
const productNumber = fc.integer({ min: 1, max: 4 });
const amount = fc.integer({ min: 0, max: 20_000 });
const tag = fc.constantFrom('vip', 'VIP', 'wholesale', 'new');
const market = fc.constantFrom('us', 'eu', 'uk');
const code = fc.constantFrom('SAVE10', 'save10', 'FREESHIP');

/** Any leaf of SPEC, including fail-closed values (negative thresholds, empty lists). */
export const leafArb: fc.Arbitrary<ConditionNode> = fc.oneof(
  fc.record({ type: fc.constant('cart.subtotal_gte' as const), value: fc.integer({ min: -10, max: 20_000 }) }),
  fc.record({ type: fc.constant('cart.subtotal_lte' as const), value: amount, currencyOverrides: fc.option(fc.record({ EUR: amount }), { nil: undefined }) }),
  fc.record({ type: fc.constant('cart.total_gte' as const), value: amount, marketOverrides: fc.option(fc.record({ eu: amount }), { nil: undefined }) }),
  fc.record({ type: fc.constant('cart.item_count_gte' as const), value: fc.integer({ min: -1, max: 6 }) }),
  fc.record({ type: fc.constant('line.has_product_id' as const), value: productNumber.map((n) => gid.product(n)) }),
  fc.record({ type: fc.constant('line.has_variant_id' as const), value: productNumber.map((n) => String(n * 10 + 1)), sellingPlanIds: fc.option(fc.constantFrom<string[]>([], ['_otp'], [gid.plan(1)]), { nil: undefined }) }),
  fc.record({ type: fc.constant('line.in_collection' as const), value: fc.constantFrom('summer', 'winter', '55') }),
  fc.record({ type: fc.constant('line.quantity_min' as const), value: fc.integer({ min: 0, max: 4 }), productId: productNumber.map((n) => gid.product(n)) }),
  fc.record({ type: fc.constant('line.property_equals' as const), key: fc.constantFrom('wrap', '"wrap"', ''), value: fc.constantFrom('yes', "'yes'") }),
  fc.record({ type: fc.constant('line.has_selling_plan' as const), value: fc.constantFrom<'has_subscription' | 'no_subscription' | ''>('has_subscription', 'no_subscription', '') }),
  fc.record({ type: fc.constant('customer.tag_in' as const), value: fc.oneof(fc.array(tag, { maxLength: 2 }), fc.constant('vip, new')) }),
  fc.record({ type: fc.constant('customer.is_logged_in' as const), value: fc.constantFrom<boolean | 'true' | 'false'>(true, false, 'true', 'false') }),
  fc.record({ type: fc.constant('market.handle_in' as const), value: fc.array(market, { maxLength: 2 }) }),
  fc.record({ type: fc.constant('country.in' as const), value: fc.array(fc.constantFrom('US', 'de'), { maxLength: 2 }) }),
  fc.constant({ type: 'discount.code_present' as const }),
  fc.constant({ type: 'discount.code_not_present' as const }),
  fc.record({ type: fc.constant('discount.code_equals' as const), value: code }),
);

/** Random trees up to a small depth, empty AND/OR included. */
export const treeArb: fc.Arbitrary<ConditionNode> = fc.letrec<{ node: ConditionNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.record({ type: fc.constant('AND' as const), children: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ type: fc.constant('OR' as const), children: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ type: fc.constant('NOT' as const), child: tie('node') }),
  ),
})).node;

/** A non-gift cart line from the small universe. */
export const lineArb: fc.Arbitrary<CartLine> = fc
  .record({
    product: productNumber,
    quantity: fc.integer({ min: 0, max: 3 }),
    price: fc.integer({ min: 0, max: 5000 }),
    subscription: fc.boolean(),
    wrap: fc.constantFrom(undefined, 'yes', '"yes"'),
    collections: fc.constantFrom(undefined, 'winter', 'summer,77'),
  })
  .map(({ product, quantity, price, subscription, wrap, collections }) => {
    const attributes: Record<string, string> = {};
    if (wrap !== undefined) attributes['wrap'] = wrap;
    if (collections !== undefined) attributes['_collections'] = collections;
    return {
      id: `line-${product}-${quantity}-${price}`,
      productId: gid.product(product),
      variantId: gid.variant(product * 10 + 1),
      quantity,
      price,
      sellingPlanId: subscription ? gid.plan(1) : null,
      attributes,
    };
  });

/** A gift line of some rule (these must never change any result). */
export const giftLineArb: fc.Arbitrary<CartLine> = fc
  .record({ product: productNumber, quantity: fc.integer({ min: 1, max: 3 }), rule: fc.constantFrom('r1', 'r2', 'gone') })
  .map(({ product, quantity, rule }) => ({
    id: `gift-${rule}-${product}`,
    productId: gid.product(product),
    variantId: gid.variant(product * 10 + 1),
    quantity,
    price: 9999,
    sellingPlanId: gid.plan(1),
    attributes: { _svc_campaign_id: 'cmp', _svc_rule_id: rule, wrap: 'yes', _collections: 'winter' },
  }));

/** A whole evaluation context without gift lines. */
export const contextArb: fc.Arbitrary<EvaluationContext> = fc.record({
  cart: fc.record({
    currency: fc.constantFrom('USD', 'USD', 'EUR'),
    lines: fc.array(lineArb, { maxLength: 5 }),
    shipping: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
    tax: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
    discountCodes: fc.option(fc.array(code, { maxLength: 2 }), { nil: undefined }),
  }),
  customer: fc.option(fc.record({ loggedIn: fc.boolean(), tags: fc.array(tag, { maxLength: 2 }) }), { nil: undefined }),
  market: fc.option(fc.record({ handle: market, country: fc.constantFrom('US', 'DE') }), { nil: undefined }),
  collections: fc.option(fc.constant({ summer: [gid.product(1), '2'] }), { nil: undefined }),
});
