/** Campaign bodies for tests, in SPEC's shapes. */
export const gift = (n = 1) => ({
  type: 'fixed',
  gifts: [{ variantId: `gid://shopify/ProductVariant/${n}`, quantity: 1 }],
  fallbackOnOOS: false,
});

export const rule = (name = 'Spend 50', conditionTree: unknown = { type: 'cart.subtotal_gte', value: 5000 }) => ({
  name,
  enabled: true,
  conditionTree,
  giftConfig: gift(),
  options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free mug' },
});

export const campaign = (name = 'Mug promo', extra: Record<string, unknown> = {}) => ({
  name,
  enabled: false,
  isDraft: true,
  startAt: null,
  endAt: null,
  rules: [rule()],
  ...extra,
});

/** A NOT chain `depth` levels deep around a leaf. */
export function deepTree(depth: number, leaf: unknown = { type: 'discount.code_present' }): unknown {
  let tree: unknown = leaf;
  for (let i = 0; i < depth; i += 1) tree = { type: 'NOT', child: tree };
  return tree;
}
