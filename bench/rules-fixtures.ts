/** The rules GET /rules benches serve: ~1 KB of payload each. */

/** A rule of the 100-rule shop (10 campaigns × 10): 100 of them make the issue's ~90 KB body. */
export const benchRule = (c: number, r: number) => ({
  name: `Bench rule ${c}-${r}: spend more, get a gift ${'x'.repeat(120)}`,
  enabled: true,
  conditionTree: {
    type: 'AND',
    children: [
      { type: 'cart.subtotal_gte', value: 5000 + r },
      { type: 'NOT', child: { type: 'discount.code_present' } },
      { type: 'cart.subtotal_gte', value: 1000 + c },
    ],
  },
  giftConfig: {
    type: 'fixed',
    gifts: [
      { variantId: `gid://shopify/ProductVariant/${c * 100 + r}`, quantity: 1 },
      { variantId: `gid://shopify/ProductVariant/${c * 100 + r + 50}`, quantity: 2 },
    ],
    fallbackOnOOS: false,
  },
  options: {
    actionType: 'auto_add',
    discountMethod: 'automatic',
    discountType: 'percentage',
    discountValue: 100,
    discountTitle: `Free mug for bench rule ${c}-${r}`,
  },
});

/** Rule `r` of every small shop of the scale case (seed-shops.ts): the same shape, campaign 0. */
export const smallShopRule = (r: number) => {
  const { name, conditionTree, giftConfig, options } = benchRule(0, r);
  return { name, conditionTree, giftConfig, options };
};
