import { describe, expect, it } from 'vitest';
import { LEAF_SCHEMAS, LEAF_TYPES, LEAVES, PLANS, PLAN_IDS, PLAN_NAMES, leafForm, leafNodeSchema, newLeaf, unlockingPlan } from '../src/index.ts';
import { LEAF_CODEC, decodeTree, encodeTree } from '../src/checkout-function.ts';

// The wire codes as configurations already written to shops hold them (before the registry,
// a leaf's code was its position in SPEC's table). Never edit a line here: add one.
const PINNED_CODES = {
  'cart.subtotal_gte': 0,
  'cart.subtotal_lte': 1,
  'cart.total_gte': 2,
  'cart.item_count_gte': 3,
  'line.has_product_id': 4,
  'line.has_variant_id': 5,
  'line.in_collection': 6,
  'line.quantity_min': 7,
  'line.property_equals': 8,
  'line.has_selling_plan': 9,
  'customer.tag_in': 10,
  'customer.is_logged_in': 11,
  'market.handle_in': 12,
  'country.in': 13,
  'discount.code_present': 14,
  'discount.code_not_present': 15,
  'discount.code_equals': 16,
};

describe('leaf registry', () => {
  it('keeps every wire code already stored in shops', () => {
    for (const [type, code] of Object.entries(PINNED_CODES)) expect(LEAVES[type as keyof typeof LEAVES].code, type).toBe(code);
  });

  it('gives every leaf its own code', () => {
    const codes = Object.values(LEAVES).map((leaf) => leaf.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((code) => Number.isSafeInteger(code) && code >= 0)).toBe(true);
  });

  it('has one record per leaf schema, each schema of its own type', () => {
    expect(Object.keys(LEAVES)).toEqual(LEAF_TYPES);
    for (const [type, schema] of Object.entries(LEAF_SCHEMAS)) expect(schema.shape.type.value).toBe(type);
  });

  it('decodes a code by its record, not its place: the codec lists the codes as written', () => {
    expect(LEAF_CODEC.map(([code, type]) => [type, code])).toEqual(Object.entries(PINNED_CODES));
    expect(decodeTree([13, 'DE'])).toEqual({ type: 'country.in', value: ['DE'] });
    expect(encodeTree({ type: 'discount.code_equals', value: 'X' })).toEqual([16, 'X']);
    expect(decodeTree([~16, 'X'])).toEqual({ type: 'NOT', child: { type: 'discount.code_equals', value: 'X' } });
    expect(decodeTree([99])).toEqual({ type: 'malformed' });
  });

  it("holds each leaf's ids and lists to its compact fields", () => {
    for (const leaf of Object.values(LEAVES)) {
      const fields: readonly string[] = leaf.fields;
      const extra = [...('ids' in leaf ? leaf.ids : []), ...('lists' in leaf ? leaf.lists : [])].filter((field) => !fields.includes(field));
      expect(extra).toEqual([]);
    }
  });
});

describe('plan registry', () => {
  it('lists the plans cheapest first, each with its name', () => {
    expect(PLAN_IDS).toEqual(['free', 'growth', 'pro', 'scale']);
    expect(PLAN_NAMES).toEqual({ free: 'Free', growth: 'Growth', pro: 'Pro', scale: 'Scale' });
  });

  it('gives API access and custom code to Scale alone, and bills all but Free (SPEC "Authentication", "PUT /widgets")', () => {
    expect(PLAN_IDS.filter((plan) => PLANS[plan].apiAccess)).toEqual(['scale']);
    expect(PLAN_IDS.filter((plan) => PLANS[plan].customCode)).toEqual(['scale']);
    expect(PLAN_IDS.filter((plan) => !PLANS[plan].paid)).toEqual(['free']);
  });

  it('names the plan that unlocks each leaf', () => {
    expect(unlockingPlan('cart.total_gte')).toBe('free');
    expect(unlockingPlan('line.has_selling_plan')).toBe('growth');
    expect(unlockingPlan('discount.code_present')).toBe('pro');
  });
});

describe('leaf forms', () => {
  it("gives the admin every field of each leaf's schema, once", () => {
    for (const [type, schema] of Object.entries(LEAF_SCHEMAS)) {
      const keys = Object.keys(schema.shape).filter((key) => key !== 'type');
      expect(leafForm(type as keyof typeof LEAF_SCHEMAS).fields.map((field) => field.key).sort(), type).toEqual(keys.sort());
    }
  });

  it('starts a new leaf with its type and its form’s values', () => {
    expect(newLeaf('line.property_equals')).toEqual({ type: 'line.property_equals', key: '', value: '' });
    expect(newLeaf('discount.code_present')).toEqual({ type: 'discount.code_present' });
    expect(leafNodeSchema.safeParse(newLeaf('cart.subtotal_gte')).success).toBe(true);
  });
});
