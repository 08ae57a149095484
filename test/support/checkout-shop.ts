/**
 * Fixtures of the checkout function's tests and benchmark: a shop of 100 live rules (10
 * campaigns of 10), carts as the function's input query returns them, and the function input
 * carrying a configuration.
 */
import { buildCheckoutConfig, compactRules, encodeRule } from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig, CompactRule, GiftFunctionInput, GiftFunctionLine } from '@gcrs/engine/checkout';

export const productGid = (n: number) => `gid://shopify/Product/${8_000_000_000_000 + n}`;
export const variantGid = (n: number) => `gid://shopify/ProductVariant/${45_000_000_000_000 + n}`;
/** Gift variants live in their own id range: gift `n` of rule `r` is variant 90_000 + r * 10 + n. */
export const giftVariant = (rule: number, n = 0) => variantGid(90_000 + rule * 10 + n);
export const ruleIdOf = (rule: number) => `rul_${String(rule).padStart(16, '0')}`;
export const campaignIdOf = (campaign: number) => `cmp_${String(campaign).padStart(16, '0')}`;

/**
 * The rules payload of a shop with `count` live rules: rule `r` needs a subtotal of
 * 50.00 + r (EUR override), and either product `r` in the cart or a `vip` customer; it gives
 * gift `giftVariant(r)` × (1 + r % 2), every third rule as a 5.00 fixed amount, the rest free.
 */
export function shopPayload(count = 100) {
  const rules = Array.from({ length: count }, (_, r) => ({
    id: ruleIdOf(r),
    campaignId: campaignIdOf(Math.floor(r / 10)),
    enabled: true,
    conditionTree: {
      type: 'AND',
      children: [
        { type: 'cart.subtotal_gte', value: 5000 + r * 100, currencyOverrides: { EUR: 4600 + r * 100 } },
        {
          type: 'OR',
          children: [
            { type: 'line.has_product_id', value: productGid(r) },
            { type: 'customer.tag_in', value: ['vip'] },
          ],
        },
      ],
    },
    giftConfig: { type: 'fixed', gifts: [{ variantId: giftVariant(r), quantity: 1 + (r % 2) }], fallbackOnOOS: false },
    options:
      r % 3 === 2
        ? { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'fixed_amount', discountValue: 500, discountTitle: 'Gift: 5 off' }
        : { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
  }));
  return { rules, shopSettings: {}, baseCurrency: 'USD' };
}

/** A plain (non-gift) line: product `n`, price in major units. */
export function plainLine(n: number, price: string, quantity = 1, currencyCode = 'USD'): GiftFunctionLine {
  return {
    id: `gid://shopify/CartLine/${n}`,
    quantity,
    cost: { amountPerQuantity: { amount: price, currencyCode } },
    merchandise: { __typename: 'ProductVariant', id: variantGid(n), product: { id: productGid(n), inCollections: [] } },
  };
}

/** A line carrying the gift attributes of rule `rule` (honest or not: `variant` decides). */
export function giftLine(
  id: number,
  rule: number,
  options: { variant?: string; quantity?: number; price?: string; currencyCode?: string; campaign?: string; ruleId?: string } = {},
): GiftFunctionLine {
  return {
    id: `gid://shopify/CartLine/g${id}`,
    quantity: options.quantity ?? 1,
    cost: { amountPerQuantity: { amount: options.price ?? '20.00', currencyCode: options.currencyCode ?? 'USD' } },
    merchandise: { __typename: 'ProductVariant', id: options.variant ?? giftVariant(rule), product: { id: productGid(70_000 + id) } },
    campaignId: { value: options.campaign ?? campaignIdOf(Math.floor(rule / 10)) },
    ruleId: { value: options.ruleId ?? ruleIdOf(rule) },
  };
}

/** The function input of `lines` under `config`. */
export function functionInput(
  config: CheckoutFunctionConfig,
  lines: GiftFunctionLine[],
  extra: { tags?: string[]; rate?: string; country?: string } = {},
): GiftFunctionInput {
  return {
    cart: {
      lines,
      buyerIdentity:
        extra.tags === undefined
          ? null
          : { isAuthenticated: true, customer: { id: 'gid://shopify/Customer/1', hasTags: extra.tags.map((tag) => ({ tag, hasTag: true })) } },
    },
    localization: { country: { isoCode: extra.country ?? 'US' } },
    presentmentCurrencyRate: extra.rate ?? '1.0',
    discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } },
  };
}

/**
 * `config` with each rule changed by `change` (given its compact array), written back as texts:
 * how the tests write a malformed rule into a configuration.
 */
export const mapRules = (config: CheckoutFunctionConfig, change: (rule: CompactRule, index: number) => unknown[]): CheckoutFunctionConfig => ({
  ...config,
  r: Object.fromEntries(compactRules(config).map((rule, index) => {
    const changed = change(rule as CompactRule, index) as CompactRule;
    return [String(changed[0]), encodeRule(changed)];
  })),
});

/** The 100-rule shop's configuration. */
export const hundredRuleConfig = () => buildCheckoutConfig(shopPayload(100));

/** A 200-line cart: 196 plain lines (products 0..195 at 1.00–20.00) and 4 honest gift lines. */
export function twoHundredLineCart(): GiftFunctionLine[] {
  const lines: GiftFunctionLine[] = [];
  for (let n = 0; n < 196; n++) lines.push(plainLine(n, `${1 + (n % 20)}.00`, 1 + (n % 3)));
  for (const rule of [3, 40, 77, 95]) lines.push(giftLine(rule, rule, { quantity: 1 }));
  return lines;
}

/** The function's answer, as far as the tests read it. */
export type FunctionResult = {
  operations: Array<{ productDiscountsAdd: { candidates: Array<{ targets: Array<{ cartLine: { id: string; quantity: number } }>; value: unknown; message: string }>; selectionStrategy: string } }>;
};

/** Line id → discounted quantity. */
export const discounted = (result: FunctionResult) =>
  Object.fromEntries(result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => [t.cartLine.id, t.cartLine.quantity]))));
