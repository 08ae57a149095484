import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CONDITION_TYPES, conditionNodeSchema } from '../src/index.ts';
import { conditionNodeJsonSchema } from '../src/json-schema.ts';

const subtotal = { type: 'cart.subtotal_gte', value: 5000 };

describe('conditionNodeSchema', () => {
  it('accepts nested trees and returns the parsed tree', () => {
    const tree = { type: 'AND', children: [subtotal, { type: 'OR', children: [{ type: 'NOT', child: subtotal }] }] };
    expect(conditionNodeSchema.parse(tree)).toEqual(tree);
  });

  it('accepts empty AND/OR (the evaluator makes them never match)', () => {
    expect(conditionNodeSchema.safeParse({ type: 'AND', children: [] }).success).toBe(true);
    expect(conditionNodeSchema.safeParse({ type: 'OR', children: [] }).success).toBe(true);
  });

  it.each([
    ['NOT without child', { type: 'NOT' }, ['child']],
    ['AND without children', { type: 'AND' }, ['children']],
    ['non-object child', { type: 'OR', children: [subtotal, 7] }, ['children', 1]],
    ['bad leaf deep inside', { type: 'AND', children: [subtotal, { type: 'NOT', child: { type: 'cart.subtotal_gte', value: 'x' } }] }, ['children', 1, 'child', 'value']],
    ['missing type', { children: [] }, ['type']],
  ])('%s reports the full path', (_name, tree, path) => {
    const result = conditionNodeSchema.safeParse(tree);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('names the allowed types for an unknown type', () => {
    const result = conditionNodeSchema.safeParse({ type: 'OR', children: [{ type: 'cart.sparkle' }] });
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(['children', 0, 'type']);
    for (const type of CONDITION_TYPES) expect(issue?.message).toContain(type);
  });

  it('reports the first issue in document order', () => {
    const result = conditionNodeSchema.safeParse({ type: 'AND', children: [{ type: 'x' }, { type: 'y' }] });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['children', 0, 'type']]);
  });

  it('prefixes the path from the request root when nested in a bigger schema', () => {
    const body = z.object({
      campaigns: z.array(z.object({ rules: z.array(z.object({ conditionTree: conditionNodeSchema })) })),
    });
    const result = body.safeParse({
      campaigns: [{ rules: [{ conditionTree: subtotal }, { conditionTree: { type: 'AND', children: [{ type: 'NOT', child: { type: 'country.in', value: ['DEU'] } }] } }] }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([
      'campaigns', 0, 'rules', 1, 'conditionTree', 'children', 0, 'child', 'value', 0,
    ]);
  });

  it('has a recursive JSON Schema for documentation, also used inside bigger schemas', () => {
    const defs = conditionNodeJsonSchema['$defs'] as Record<string, unknown>;
    expect(Object.keys(defs)).toEqual(expect.arrayContaining(['ConditionNode', 'AndNode', 'OrNode', 'NotNode', 'CartSubtotalGteLeaf', 'DiscountCodeEqualsLeaf']));
    expect(Object.keys(defs)).toHaveLength(17 + 4);
    const embedded = z.toJSONSchema(z.object({ conditionTree: conditionNodeSchema }));
    expect(JSON.stringify(embedded)).toContain('"$id":"urn:gcrs:engine:condition-node"');
  });
});
