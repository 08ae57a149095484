import { describe, expect, it } from 'vitest';
import type { ConditionNode } from '../src/index.ts';
import { LEAF_TYPES, LEAF_TYPES_BY_PLAN, collectTriggerIds, isLeafAllowed, stripDisallowedLeaves } from '../src/index.ts';
import { gid } from './support/trees.ts';

const subtotal: ConditionNode = { type: 'cart.subtotal_gte', value: 5000 };
const tag: ConditionNode = { type: 'customer.tag_in', value: ['vip'] };
const product: ConditionNode = { type: 'line.has_product_id', value: gid.product(1) };

describe('plan matrix', () => {
  it('follows SPEC', () => {
    expect(LEAF_TYPES_BY_PLAN.free).toEqual(['cart.subtotal_gte', 'cart.subtotal_lte', 'cart.total_gte']);
    expect(LEAF_TYPES_BY_PLAN.growth).toHaveLength(10);
    expect([...LEAF_TYPES_BY_PLAN.pro].sort()).toEqual([...LEAF_TYPES].sort());
    expect(LEAF_TYPES_BY_PLAN.scale).toEqual(LEAF_TYPES_BY_PLAN.pro);
    expect(isLeafAllowed('free', 'customer.tag_in')).toBe(false);
    expect(isLeafAllowed('growth', 'line.has_selling_plan')).toBe(true);
    expect(isLeafAllowed('growth', 'country.in')).toBe(false);
    expect(isLeafAllowed('scale', 'discount.code_equals')).toBe(true);
    expect(isLeafAllowed('scale', 'AND')).toBe(false);
  });
});

describe('stripDisallowedLeaves', () => {
  it.each<[string, ConditionNode, ConditionNode, number]>([
    ['removes a leaf from its parent', { type: 'AND', children: [subtotal, tag] }, { type: 'AND', children: [subtotal] }, 1],
    ['removes an AND emptied by stripping', { type: 'OR', children: [subtotal, { type: 'AND', children: [tag, product] }] }, { type: 'OR', children: [subtotal] }, 2],
    ['removes a NOT whose child went', { type: 'AND', children: [subtotal, { type: 'NOT', child: tag }] }, { type: 'AND', children: [subtotal] }, 1],
    ['root leaf removed -> never matching', tag, { type: 'AND', children: [] }, 1],
    ['root emptied -> never matching', { type: 'NOT', child: { type: 'OR', children: [tag] } }, { type: 'AND', children: [] }, 1],
    ['keeps an already empty AND', { type: 'OR', children: [{ type: 'AND', children: [] }, tag] }, { type: 'OR', children: [{ type: 'AND', children: [] }] }, 1],
    ['rebuilds NOT around a changed child', { type: 'NOT', child: { type: 'AND', children: [tag, subtotal] } }, { type: 'NOT', child: { type: 'AND', children: [subtotal] } }, 1],
  ])('%s', (_name, tree, expected, stripped) => {
    expect(stripDisallowedLeaves(tree, 'free')).toEqual({ tree: expected, stripped });
  });

  it('returns an untouched tree as the same object', () => {
    const tree: ConditionNode = { type: 'AND', children: [subtotal, { type: 'NOT', child: { type: 'OR', children: [tag] } }] };
    const result = stripDisallowedLeaves(tree, 'pro');
    expect(result.tree).toBe(tree);
    expect(result.stripped).toBe(0);
  });

  it('does not mutate its input', () => {
    const tree: ConditionNode = { type: 'AND', children: [subtotal, tag] };
    const copy = structuredClone(tree);
    stripDisallowedLeaves(tree, 'free');
    expect(tree).toEqual(copy);
  });
});

describe('collectTriggerIds', () => {
  it('collects products and variants, deduplicated', () => {
    const tree: ConditionNode = {
      type: 'OR',
      children: [
        product,
        { type: 'NOT', child: { type: 'line.has_variant_id', value: gid.variant(2) } },
        { type: 'line.quantity_min', value: 2, productId: gid.product(1), variantId: gid.variant(3) },
        { type: 'line.has_product_id', value: 77 },
        subtotal,
      ],
    };
    expect(collectTriggerIds(tree)).toEqual({
      productIds: [gid.product(1), '77'],
      variantIds: [gid.variant(2), gid.variant(3)],
    });
  });
});
