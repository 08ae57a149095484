import type { AjaxCart, AjaxCartItem, RulesPayloadInput } from '../../src/index.ts';

/** A line of `GET /cart.js` as the platform answers it (prices in minor units). */
export function item(variant: number, overrides: Partial<AjaxCartItem> = {}): AjaxCartItem {
  return {
    key: `${variant}:k${variant}`,
    id: variant,
    product_id: variant * 10,
    quantity: 1,
    price: 1000,
    properties: {},
    selling_plan_allocation: null,
    ...overrides,
  };
}

/** A gift line the script added for rule `ruleId`. */
export function giftItem(variant: number, ruleId: string, extra: Record<string, string> = {}, overrides: Partial<AjaxCartItem> = {}): AjaxCartItem {
  return item(variant, {
    price: 0,
    properties: { _svc_campaign_id: `cmp_${ruleId}`, _svc_rule_id: ruleId, _svc_auto: 'true', ...extra },
    ...overrides,
  });
}

export function cart(items: AjaxCartItem[], overrides: Partial<AjaxCart> = {}): AjaxCart {
  return { token: 'c1-token', currency: 'USD', items, ...overrides };
}

export const variantGid = (n: number) => `gid://shopify/ProductVariant/${n}`;

/** A USD payload: rule `r1` gives variant 9001 from a subtotal of 50.00. */
export function subtotalPayload(overrides: Partial<RulesPayloadInput['rules'][number]> = {}): RulesPayloadInput {
  return {
    baseCurrency: 'USD',
    rules: [
      {
        id: 'r1',
        campaignId: 'cmp_r1',
        conditionTree: { type: 'cart.subtotal_gte', value: 5000 },
        giftConfig: { type: 'fixed', gifts: [{ variantId: variantGid(9001), quantity: 1 }] },
        options: { discountTitle: 'Tote bag' },
        ...overrides,
      },
    ],
  };
}
