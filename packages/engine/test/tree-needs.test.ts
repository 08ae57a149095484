// tree-needs.ts: which line facts the checkout function keys, read from the compact trees.
import { encodeTree } from '@gcrs/engine/checkout';
import { describe, expect, it } from 'vitest';
import { treeNeeds } from '../src/checkout/tree-needs.ts';

const leaf = (type: string, value: unknown = 1, extra: Record<string, unknown> = {}) => encodeTree({ type, value, ...extra });
const none = { products: false, variants: false, collections: false, lines: false };

describe('treeNeeds', () => {
  it.each([
    ['amounts, counts, the buyer and the country', [leaf('cart.subtotal_gte', 5000), leaf('cart.item_count_gte', 2), leaf('customer.tag_in', ['vip']), leaf('country.in', ['DE'])], none],
    ['a product', [leaf('line.has_product_id', 'gid://shopify/Product/7')], { ...none, products: true }],
    ['a variant under NOT (the complemented code)', [encodeTree({ type: 'NOT', child: { type: 'line.has_variant_id', value: 7 } })], { ...none, variants: true }],
    ['a collection: its products too, and the lines (the `_collections` fallback walks them)', [leaf('line.in_collection', 12)], { ...none, products: true, collections: true, lines: true }],
    ['a quantity of a product or variant', [leaf('line.quantity_min', 2, { productId: 7 })], { ...none, products: true, variants: true }],
    ['a quantity restricted to selling plans: the lines', [leaf('line.quantity_min', 2, { productId: 7, sellingPlanIds: ['_otp'] })], { ...none, products: true, variants: true, lines: true }],
    ['a product restricted to a property (under NOT): the lines', [encodeTree({ type: 'NOT', child: { type: 'line.has_product_id', value: 7, propertyKey: 'wrap' } })], { ...none, products: true, lines: true }],
    ['a line property: the lines', [leaf('line.property_equals', 'yes', { key: 'wrap' })], { ...none, lines: true }],
    [
      'deep in AND (head dropped) and OR',
      [encodeTree({ type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 1 }, { type: 'OR', children: [{ type: 'customer.is_logged_in', value: true }, { type: 'line.has_variant_id', value: 3 }] }] })],
      { ...none, variants: true },
    ],
    ['no tree, a never-matching 0, absent rules', [0, undefined], none],
    ['an unknown code: everything (never less than before)', [[99, 1]], { products: true, variants: true, collections: true, lines: true }],
  ])('%s', (_, trees, expected) => {
    expect(treeNeeds(trees)).toEqual(expected);
  });
});
