// The checkout function trusts no attribute (CONTRACT "Checkout"): a claim copied onto a
// regular line is neither discounted nor takes that line out of the cart the conditions see,
// whatever the order of the lines. Also the shop settings the discount applies
// (stripZeroPriceItems, minOrderTotalCents), moved here from the older runCheckoutDiscount.
// Every case runs the built bundle in QuickJS and checks it against the engine in Node.
import { buildCheckoutConfig, runGiftDiscount } from '@gcrs/engine/checkout';
import type { GiftFunctionInput, GiftFunctionLine } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFunctionInQuickJs } from '../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../dev/checkout/quickjs-function.ts';
import { buildFunction } from '../scripts/build-function.ts';
import { campaignIdOf, functionInput, giftLine, giftVariant, hundredRuleConfig, plainLine, ruleIdOf, shopPayload, variantGid } from './support/checkout-shop.ts';
import { withUuidLineIds } from './support/cart-line-ids.ts';

type Result = { operations: Array<{ productDiscountsAdd: { candidates: Array<{ targets: Array<{ cartLine: { id: string; quantity: number } }>; message: string }> } }> };

let fn: QuickJsFunction;
beforeAll(async () => {
  fn = await loadFunctionInQuickJs((await buildFunction({ write: false })).code);
});
afterAll(() => fn.dispose());

/** Line id → discounted quantity, from the function in QuickJS (checked against Node). */
function discounted(input: GiftFunctionInput): Record<string, number> {
  const result = fn.run(input) as Result;
  expect(result).toEqual(runGiftDiscount(input));
  return Object.fromEntries(result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => [t.cartLine.id, t.cartLine.quantity]))));
}

/** A regular line (product `n`, its own variant) carrying a copy of rule `rule`'s claim. */
const forged = (n: number, rule: number, price: string): GiftFunctionLine => ({
  ...plainLine(n, price),
  campaignId: { value: campaignIdOf(Math.floor(rule / 10)) },
  ruleId: { value: ruleIdOf(rule) },
});

describe('a claim copied onto a regular line', () => {
  const config = hundredRuleConfig().config;
  // Rule 3 needs a subtotal of 53.00 and product 3 (or a vip); it gives 2 units of giftVariant(3).

  it('is not discounted, and its line still counts for the conditions (gift line first)', () => {
    // Product 3 at 60.00 is the only line that makes rule 3 match, and it carries the copied claim.
    const input = functionInput(config, withUuidLineIds([giftLine(1, 3), forged(3, 3, '60.00')]));
    const [gift, copy] = input.cart.lines;
    expect(discounted(input)).toEqual({ [gift?.id ?? '']: 1 });
    expect(discounted(input)[copy?.id ?? '']).toBeUndefined();
  });

  it('is not discounted, and its line still counts for the conditions (copy first)', () => {
    const input = functionInput(config, withUuidLineIds([forged(3, 3, '60.00'), giftLine(1, 3, { quantity: 2 })]));
    expect(Object.values(discounted(input))).toEqual([2]);
  });

  it('cannot make a cart.subtotal_lte rule match by hiding an expensive line (gift line first)', () => {
    // One rule: subtotal ≤ 50.00 gives giftVariant(0). The cart's real subtotal is 80.00.
    const [first] = shopPayload(1).rules;
    if (first === undefined) throw new Error('fixture');
    const lte = buildCheckoutConfig({ ...shopPayload(1), rules: [{ ...first, conditionTree: { type: 'cart.subtotal_lte', value: 5000 } }] }).config;
    const cheap = functionInput(lte, [giftLine(1, 0), plainLine(7, '30.00')]);
    expect(discounted(cheap)).toEqual({ 'gid://shopify/CartLine/g1': 1 });
    expect(discounted(functionInput(lte, [giftLine(1, 0), forged(7, 0, '80.00')]))).toEqual({});
    expect(discounted(functionInput(lte, [giftLine(1, 0), plainLine(7, '80.00')]))).toEqual({});
  });
});

describe('collections and variants from the platform (ids turned into keys once per line)', () => {
  const [first] = shopPayload(1).rules;
  if (first === undefined) throw new Error('fixture');
  const ruleWith = (conditionTree: unknown) => buildCheckoutConfig({ ...shopPayload(1), rules: [{ ...first, conditionTree: conditionTree as never }] }).config;
  const inCollection = (isMember: boolean): GiftFunctionLine => {
    const line = plainLine(5, '10.00');
    return { ...line, merchandise: { ...line.merchandise, product: { id: line.merchandise.product?.id ?? '', inCollections: [{ collectionId: 'gid://shopify/Collection/77', isMember }] } } };
  };

  it('line.in_collection holds from inCollections, and only for a member', () => {
    const config = ruleWith({ type: 'line.in_collection', value: 'gid://shopify/Collection/77' });
    expect(Object.values(discounted(functionInput(config, [inCollection(true), giftLine(1, 0)])))).toEqual([1]);
    expect(discounted(functionInput(config, [inCollection(false), giftLine(1, 0)]))).toEqual({});
  });

  it('line.has_variant_id compares the variant gid by its number', () => {
    const config = ruleWith({ type: 'line.has_variant_id', value: variantGid(5) });
    expect(discounted(functionInput(config, [plainLine(5, '10.00'), giftLine(1, 0)]))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
    expect(discounted(functionInput(config, [plainLine(6, '10.00'), giftLine(1, 0)]))).toEqual({});
  });
});

describe('what the discount applies of shopSettings.checkout', () => {
  const shop = shopPayload(2);
  const withSettings = (checkout: Record<string, unknown>) => buildCheckoutConfig({ ...shop, shopSettings: { checkout } }).config;

  it('stripZeroPriceItems: a gift line priced 0 gets no target, the rule\'s other gift lines still do', () => {
    const lines = [plainLine(1, '60.00'), giftLine(1, 1, { price: '0.00' }), giftLine(2, 1)];
    expect(discounted(functionInput(withSettings({ stripZeroPriceItems: true }), lines))).toEqual({ 'gid://shopify/CartLine/g2': 1 });
    expect(discounted(functionInput(withSettings({}), lines))).toEqual({ 'gid://shopify/CartLine/g1': 1, 'gid://shopify/CartLine/g2': 1 });
  });

  it('minOrderTotalCents: below it in the base currency nothing is discounted; reached, or another currency, as usual', () => {
    const minimum = withSettings({ minOrderTotalCents: 10000 });
    expect(discounted(functionInput(minimum, [plainLine(0, '60.00'), giftLine(1, 0, { price: '100.00' })]))).toEqual({});
    expect(discounted(functionInput(minimum, [plainLine(0, '60.00'), plainLine(5, '40.00'), giftLine(1, 0)]))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
    const eur = [plainLine(0, '60.00', 1, 'EUR'), giftLine(1, 0, { currencyCode: 'EUR' })];
    expect(discounted(functionInput(minimum, eur))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
  });

  it('groups the gift lines of one rule into one candidate', () => {
    const result = fn.run(functionInput(withSettings({}), [plainLine(1, '60.00'), giftLine(1, 1), giftLine(2, 1, { variant: giftVariant(1) })])) as Result;
    expect(result.operations[0]?.productDiscountsAdd.candidates.map((c) => c.targets.map((t) => t.cartLine.id))).toEqual([
      ['gid://shopify/CartLine/g1', 'gid://shopify/CartLine/g2'],
    ]);
  });
});
