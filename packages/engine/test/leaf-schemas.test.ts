import { describe, expect, it } from 'vitest';
import { LEAF_TYPES, conditionNodeSchema, leafNodeSchema } from '../src/index.ts';
import { buildConditionNodeJsonSchema } from '../src/json-schema.ts';
import { gid } from './support/trees.ts';

// [description, node, accepted]
const cases: Array<[string, unknown, boolean]> = [
  ['subtotal with value', { type: 'cart.subtotal_gte', value: 5000 }, true],
  ['subtotal with overrides', { type: 'cart.subtotal_lte', value: 1, currencyOverrides: { EUR: 2 }, marketOverrides: { eu: 3 } }, true],
  ['subtotal negative (fails closed later)', { type: 'cart.subtotal_gte', value: -1 }, true],
  ['subtotal fractional', { type: 'cart.subtotal_gte', value: 10.5 }, false],
  ['subtotal missing value', { type: 'cart.subtotal_gte' }, false],
  ['subtotal string value', { type: 'cart.total_gte', value: '100' }, false],
  ['override not integer', { type: 'cart.total_gte', value: 1, currencyOverrides: { EUR: 1.5 } }, false],
  ['item count', { type: 'cart.item_count_gte', value: 3 }, true],
  ['item count missing', { type: 'cart.item_count_gte' }, false],
  ['product gid', { type: 'line.has_product_id', value: gid.product(1) }, true],
  ['product numeric string', { type: 'line.has_product_id', value: '123' }, true],
  ['product numeric number', { type: 'line.has_product_id', value: 123 }, true],
  ['product variant gid rejected', { type: 'line.has_product_id', value: gid.variant(1) }, false],
  ['product junk', { type: 'line.has_product_id', value: 'abc' }, false],
  ['product with restrictions', { type: 'line.has_product_id', value: '1', sellingPlanIds: [gid.plan(2), '_otp'], propertyKey: 'k', propertyValue: 'v' }, true],
  ['product empty selling plans (fails closed later)', { type: 'line.has_product_id', value: '1', sellingPlanIds: [] }, true],
  ['product bad selling plan', { type: 'line.has_product_id', value: '1', sellingPlanIds: ['x'] }, false],
  ['variant gid', { type: 'line.has_variant_id', value: gid.variant(9) }, true],
  ['variant product gid rejected', { type: 'line.has_variant_id', value: gid.product(9) }, false],
  ['collection handle', { type: 'line.in_collection', value: 'summer' }, true],
  ['collection gid', { type: 'line.in_collection', value: gid.collection(4) }, true],
  ['collection empty', { type: 'line.in_collection', value: '' }, false],
  ['quantity min product', { type: 'line.quantity_min', value: 2, productId: gid.product(1) }, true],
  ['quantity min variant', { type: 'line.quantity_min', value: 2, variantId: gid.variant(1) }, true],
  ['quantity min neither (fails closed later)', { type: 'line.quantity_min', value: 2 }, true],
  ['quantity min numeric product rejected', { type: 'line.quantity_min', value: 2, productId: '1' }, false],
  ['property equals', { type: 'line.property_equals', key: 'a', value: 'b' }, true],
  ['property equals empty key (fails closed later)', { type: 'line.property_equals', key: '', value: 'b' }, true],
  ['property equals missing value', { type: 'line.property_equals', key: 'a' }, false],
  ['selling plan has', { type: 'line.has_selling_plan', value: 'has_subscription' }, true],
  ['selling plan empty string', { type: 'line.has_selling_plan', value: '' }, true],
  ['selling plan absent', { type: 'line.has_selling_plan' }, true],
  ['selling plan other', { type: 'line.has_selling_plan', value: 'sometimes' }, false],
  ['tags array', { type: 'customer.tag_in', value: ['vip'] }, true],
  ['tags comma string', { type: 'customer.tag_in', value: 'vip, wholesale' }, true],
  ['tags empty array (fails closed later)', { type: 'customer.tag_in', value: [] }, true],
  ['tags number', { type: 'customer.tag_in', value: 1 }, false],
  ['logged in boolean', { type: 'customer.is_logged_in', value: false }, true],
  ['logged in string true', { type: 'customer.is_logged_in', value: 'true' }, true],
  // SPEC: other values are stored and fail closed at evaluation, not rejected.
  ['logged in string yes', { type: 'customer.is_logged_in', value: 'yes' }, true],
  ['logged in number', { type: 'customer.is_logged_in', value: 1 }, true],
  ['logged in null', { type: 'customer.is_logged_in', value: null }, true],
  ['logged in with a NUL inside', { type: 'customer.is_logged_in', value: { note: 'a\u0000' } }, false],
  ['logged in with a lone surrogate key', { type: 'customer.is_logged_in', value: { '\uD800': true } }, false],
  ['logged in missing', { type: 'customer.is_logged_in' }, false],
  ['market handles', { type: 'market.handle_in', value: ['eu'] }, true],
  ['market string', { type: 'market.handle_in', value: 'eu' }, false],
  ['countries', { type: 'country.in', value: ['DE', 'fr'] }, true],
  ['country 3 letters', { type: 'country.in', value: ['DEU'] }, false],
  ['code present', { type: 'discount.code_present' }, true],
  ['code not present', { type: 'discount.code_not_present' }, true],
  ['code equals', { type: 'discount.code_equals', value: 'SAVE10' }, true],
  ['code equals missing', { type: 'discount.code_equals' }, false],
];

describe('leaf schemas', () => {
  it.each(cases)('%s', (_name, node, accepted) => {
    expect(leafNodeSchema.safeParse(node).success).toBe(accepted);
    expect(conditionNodeSchema.safeParse(node).success).toBe(accepted);
  });

  it('covers every leaf type of SPEC', () => {
    const covered = new Set(cases.map(([, node]) => (node as { type: string }).type));
    expect([...covered].sort()).toEqual([...LEAF_TYPES].sort());
    expect(LEAF_TYPES).toHaveLength(17);
  });

  it('strips unknown keys and keeps values as given', () => {
    const parsed = conditionNodeSchema.parse({ type: 'customer.tag_in', value: 'a,b', extra: 1 });
    expect(parsed).toEqual({ type: 'customer.tag_in', value: 'a,b' });
  });

  it('keeps a customer.is_logged_in value that is not true/false as sent (it fails closed at evaluation)', () => {
    for (const value of ['yes', 1, null, { nested: true }]) {
      expect(conditionNodeSchema.parse({ type: 'customer.is_logged_in', value })).toEqual({ type: 'customer.is_logged_in', value });
    }
  });

  it('documents customer.is_logged_in as a required value of any type', () => {
    const leaf = buildConditionNodeJsonSchema().$defs['CustomerIsLoggedInLeaf'];
    expect(leaf).toMatchObject({ required: ['type', 'value'], properties: { value: { description: expect.stringContaining('never matches') } } });
    expect(leaf?.['properties']).not.toHaveProperty('value.type');
  });
});
