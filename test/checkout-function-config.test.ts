// The checkout discount function's configuration (CONTRACT "Checkout"), built by the engine:
// a 100-rule shop fits the platform limit (its size is printed), a shop that does not fit is
// reported and never truncated, rules the function cannot re-check (discount codes, markets,
// invalid) are left out with a reason, and condition trees round-trip through the compact codec.
import { LEAF_SCHEMAS } from '@gcrs/engine';
import { CHECKOUT_CONFIG_LIMIT_BYTES, LEAF_CODEC, buildCheckoutConfig, decodeTree, encodeTree, runGiftDiscount } from '@gcrs/engine/checkout';
import { describe, expect, it } from 'vitest';
import { discounted, functionInput, giftLine, hundredRuleConfig, plainLine, ruleIdOf, shopPayload } from './support/checkout-shop.ts';

describe('configuration', () => {
  it('fits a 100-rule shop in the platform limit', () => {
    const built = hundredRuleConfig();
    console.log(`100-rule shop: checkout configuration ${built.bytes} bytes (limit ${CHECKOUT_CONFIG_LIMIT_BYTES})`);
    expect(Object.keys(built.config.r)).toHaveLength(100);
    expect(built.fits).toBe(true);
    expect(built.bytes).toBeLessThanOrEqual(CHECKOUT_CONFIG_LIMIT_BYTES);
  });

  it('reports, never truncates, a shop that does not fit', () => {
    // About 94 bytes a rule: 300 rules are more than the two metafields hold.
    const built = buildCheckoutConfig(shopPayload(300));
    expect(built.fits).toBe(false);
    expect(Object.keys(built.config.r)).toHaveLength(300);
  });

  it('leaves out rules the function cannot re-check, and says why', () => {
    const payload = shopPayload(2);
    const [first, second] = payload.rules;
    if (first === undefined || second === undefined) throw new Error('fixture');
    first.conditionTree = { type: 'AND', children: [first.conditionTree, { type: 'discount.code_not_present' }] } as never;
    second.giftConfig = { type: 'fixed', gifts: [] } as never;
    expect(buildCheckoutConfig(payload).excluded).toEqual([
      { ruleId: ruleIdOf(0), reason: 'discount_code_condition' },
      { ruleId: ruleIdOf(1), reason: 'invalid_rule' },
    ]);
  });

  it('leaves out rules that need the market, which the function is no longer told (Localization.market is deprecated)', () => {
    const payload = shopPayload(4);
    const [handle, override, emptyOverride, country] = payload.rules;
    if (handle === undefined || override === undefined || emptyOverride === undefined || country === undefined) throw new Error('fixture');
    handle.conditionTree = { type: 'NOT', child: { type: 'market.handle_in', value: ['eu'] } } as never;
    override.conditionTree = { type: 'cart.subtotal_gte', value: 1000, marketOverrides: { eu: 90000 } } as never;
    emptyOverride.conditionTree = { type: 'cart.subtotal_gte', value: 1000, marketOverrides: {} } as never;
    country.conditionTree = { type: 'country.in', value: ['DE'] } as never;
    const built = buildCheckoutConfig(payload);
    expect(built.excluded).toEqual([
      { ruleId: ruleIdOf(0), reason: 'market_condition' },
      { ruleId: ruleIdOf(1), reason: 'market_condition' },
    ]);
    expect(Object.keys(built.config.r)).toHaveLength(2);
    // A shopper claiming the excluded "NOT eu" rule pays full price whatever the country; the
    // country rule still works from localization.country.
    const claims = (isoCode: string) =>
      runGiftDiscount(functionInput(built.config, [plainLine(3, '60.00'), giftLine(1, 0), giftLine(2, 3)], { country: isoCode }));
    expect(discounted(claims('DE'))).toEqual({ 'gid://shopify/CartLine/g2': 1 });
    expect(discounted(claims('US'))).toEqual({});
  });

  it('has one codec entry per leaf type, with exactly its schema fields', () => {
    const fromSchemas = Object.entries(LEAF_SCHEMAS).map(([type, schema]) => [type, Object.keys(schema.shape).filter((key) => key !== 'type')]);
    expect(LEAF_CODEC.map(([, type, fields]) => [type, [...fields]])).toEqual(fromSchemas);
  });

  it('round-trips trees through the compact form', () => {
    const tree = {
      type: 'OR',
      children: [
        { type: 'NOT', child: { type: 'country.in', value: ['US'] } },
        { type: 'AND', children: [{ type: 'cart.item_count_gte', value: 2 }, { type: 'line.has_product_id', value: 12, propertyKey: 'k' }] },
        { type: 'customer.tag_in', value: ['a', 'b'] },
      ],
    };
    expect(decodeTree(encodeTree(tree))).toEqual(tree);
    // Ids keep only their numeric part, which is all the engine compares.
    expect(encodeTree({ type: 'line.has_variant_id', value: 'gid://shopify/ProductVariant/7' })).toEqual([5, 7]);
  });
});
