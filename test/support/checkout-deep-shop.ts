/**
 * The checkout configuration's size fixture (issue 22, docs/checkout-function.md "Size"): a shop
 * of rules whose condition trees are four levels deep, as a merchant's tiered, targeted
 * campaigns write them, and a 200-line cart whose line ids have the platform's real shape
 * (`gid://shopify/CartLine/<uuid v4>`).
 */
import { buildCheckoutConfig } from '@gcrs/engine/checkout';
import type { GiftDiscountCandidate, GiftFunctionInput, GiftFunctionLine } from '@gcrs/engine/checkout';
import { campaignIdOf, giftLine, giftVariant, plainLine, productGid, ruleIdOf, variantGid } from './checkout-shop.ts';

export const collectionGid = (n: number) => `gid://shopify/Collection/${450_000_000_000 + n}`;

/**
 * Rule `r`'s tree, depth 4 (root at depth 0, deepest leaves at 4):
 * AND( subtotal ≥ 50.00 + r (EUR override),
 *      OR( AND( product r, quantity ≥ 2 of product r + 1 ),
 *          AND( tag vip or gold, NOT( country in US, CA ) ),
 *          AND( OR( collection r % 7, variant r ), item count ≥ 3 ) ) )
 */
export function deepTree(r: number) {
  return {
    type: 'AND',
    children: [
      { type: 'cart.subtotal_gte', value: 5000 + r * 100, currencyOverrides: { EUR: 4600 + r * 100 } },
      {
        type: 'OR',
        children: [
          { type: 'AND', children: [{ type: 'line.has_product_id', value: productGid(r) }, { type: 'line.quantity_min', value: 2, productId: productGid(r + 1) }] },
          { type: 'AND', children: [{ type: 'customer.tag_in', value: ['vip', 'gold'] }, { type: 'NOT', child: { type: 'country.in', value: ['US', 'CA'] } }] },
          {
            type: 'AND',
            children: [
              { type: 'OR', children: [{ type: 'line.in_collection', value: collectionGid(r % 7) }, { type: 'line.has_variant_id', value: variantGid(r) }] },
              { type: 'cart.item_count_gte', value: 3 },
            ],
          },
        ],
      },
    ],
  };
}

/** A rules payload of `count` depth-4 rules (10 per campaign), gifts and discounts as in checkout-shop.ts. */
export function deepShopPayload(count = 100) {
  const rules = Array.from({ length: count }, (_, r) => ({
    id: ruleIdOf(r),
    campaignId: campaignIdOf(Math.floor(r / 10)),
    enabled: true,
    conditionTree: deepTree(r),
    giftConfig: { type: 'fixed', gifts: [{ variantId: giftVariant(r), quantity: 1 + (r % 2) }], fallbackOnOOS: false },
    options:
      r % 3 === 2
        ? { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'fixed_amount', discountValue: 500, discountTitle: 'Gift: 5 off' }
        : { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
  }));
  return { rules, shopSettings: {}, baseCurrency: 'USD' };
}

/** The deep shop's configuration. */
export const deepShopConfig = (count = 100) => buildCheckoutConfig(deepShopPayload(count));

/** A deterministic uuid v4 (36 characters) for line `n`: the platform's cart line ids carry one. */
export function uuidOf(n: number): string {
  const hex = (n * 2654435761 + 0x9e3779b9).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(0, 3)}-8${hex.slice(3, 6)}-${hex.padStart(12, 'a')}`;
}

/** A line id of the platform's shape. */
export const cartLineId = (n: number) => `gid://shopify/CartLine/${uuidOf(n)}`;

/** The same line with the platform's line id shape. */
export const withRealId = (line: GiftFunctionLine, n: number): GiftFunctionLine => ({ ...line, id: cartLineId(n) });

/**
 * The cart that overflowed the output: 200 lines with the platform's line ids, a `vip` buyer
 * (every rule of the 100-rule shop matches), one gift line for each of the 100 rules and a
 * second one for each rule giving two units (150 gift lines), the rest plain lines.
 */
export function manyGiftsCart(): GiftFunctionLine[] {
  const lines: GiftFunctionLine[] = [withRealId(plainLine(0, '500.00'), 0)];
  for (let rule = 0; rule < 100; rule++) {
    lines.push(withRealId(giftLine(rule, rule), lines.length));
    if (rule % 2 === 1) lines.push(withRealId(giftLine(1000 + rule, rule), lines.length));
  }
  while (lines.length < 200) lines.push(withRealId(plainLine(lines.length, '1.00'), lines.length));
  return lines;
}

/**
 * The largest function input of a 200-line cart the tests build: `manyGiftsCart`, both
 * configuration metafields of the 100 depth-4 rules, a signed-in customer with 20 tags asked and
 * counts for 100 limited rules, and `collections` collection ids asked of every line.
 */
export function fullInput(collections: number) {
  const [config, config2] = deepShopConfig(100).metafields.map((m) => ({ jsonValue: JSON.parse(m.value) as unknown }));
  const lines = manyGiftsCart().map((line) => ({
    ...line,
    merchandise: {
      ...line.merchandise,
      product: {
        id: line.merchandise.product?.id ?? '',
        inCollections: Array.from({ length: collections }, (_, i) => ({ collectionId: collectionGid(i), isMember: i % 3 === 0 })),
      },
    },
    sellingPlanAllocation: null,
  }));
  const redemptions = JSON.stringify(Object.fromEntries(Array.from({ length: 100 }, (_, r) => [ruleIdOf(r), 3])));
  const customer = { id: 'gid://shopify/Customer/7000000000001', hasTags: Array.from({ length: 20 }, (_, i) => ({ tag: `tag-${i}`, hasTag: false })), metafield: { value: redemptions } };
  return {
    cart: { lines, buyerIdentity: { isAuthenticated: true, customer } },
    localization: { country: { isoCode: 'US' } },
    presentmentCurrencyRate: '1.0',
    discount: { discountClasses: ['PRODUCT'], metafield: config, config2 },
  };
}

/** The function's result, as far as the size checks read it. */
export type DiscountResult = { operations: Array<{ productDiscountsAdd: { candidates: GiftDiscountCandidate[] } }> };

/** The bytes of `result`'s targets as one candidate per claimed rule: the output before merging. */
export function perRuleBytes(input: GiftFunctionInput, result: DiscountResult): number {
  const ruleOf = new Map(input.cart.lines.map((line) => [line.id, line.ruleId?.value ?? '']));
  const byRule = new Map<string, GiftDiscountCandidate>();
  for (const candidate of result.operations.flatMap((op) => op.productDiscountsAdd.candidates)) {
    for (const target of candidate.targets) {
      const rule = ruleOf.get(target.cartLine.id) ?? '';
      const entry = byRule.get(rule) ?? { targets: [], value: candidate.value, message: candidate.message };
      entry.targets.push(target);
      byRule.set(rule, entry);
    }
  }
  return Buffer.byteLength(JSON.stringify({ operations: [{ productDiscountsAdd: { candidates: [...byRule.values()], selectionStrategy: 'ALL' } }] }));
}
