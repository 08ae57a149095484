import { describe, expect, it } from 'vitest';
import type { ConditionTrace } from '../src/index.ts';
import {
  collectTriggerIds,
  compileConditionProgram,
  conditionNodeSchema,
  evaluateCondition,
  planCart,
  prepareContext,
  stripDisallowedLeaves,
  traceCondition,
} from '../src/index.ts';
import { context, line } from './support/contexts.ts';
import { gid, nestedAnds, nestedNots } from './support/trees.ts';

const DEPTH = 100_000;

describe('100,000-level trees', () => {
  it('validate, strip and collect ids without recursion', () => {
    const tree = nestedNots(DEPTH, { type: 'line.has_product_id', value: gid.product(5) });
    const parsed = conditionNodeSchema.safeParse(tree);
    expect(parsed.success).toBe(true);
    expect(stripDisallowedLeaves(tree, 'growth').tree).toBe(tree);
    expect(stripDisallowedLeaves(tree, 'free')).toEqual({ tree: { type: 'AND', children: [] }, stripped: 1 });
    expect(collectTriggerIds(tree).productIds).toEqual([gid.product(5)]);
  });

  it('reports an issue at the bottom of a deep tree with its full path', () => {
    const tree = nestedAnds(DEPTH, { type: 'cart.subtotal_gte', value: 'x' } as never);
    const result = conditionNodeSchema.safeParse(tree);
    expect(result.success).toBe(false);
    const path = result.error?.issues[0]?.path ?? [];
    expect(path).toHaveLength(DEPTH * 2 + 1);
    expect(path.slice(0, 2)).toEqual(['children', 0]);
    expect(path.at(-1)).toBe('value');
  });
});

describe('100,000-level trees evaluate', () => {
  const ctx = context([line()]);
  const options = { baseCurrency: 'USD' };

  it.each([
    ['even NOTs around a matching leaf', nestedNots(DEPTH, { type: 'line.has_product_id', value: gid.product(1) }), true],
    ['odd NOTs around a matching leaf', nestedNots(DEPTH + 1, { type: 'line.has_product_id', value: gid.product(1) }), false],
    ['ANDs around a failing leaf', nestedAnds(DEPTH, { type: 'cart.subtotal_gte', value: 5000 }), false],
  ])('%s: short-circuit, trace and compiled agree', (_name, tree, matched) => {
    expect(evaluateCondition(tree, ctx, options).matched).toBe(matched);
    expect(compileConditionProgram(tree).run(prepareContext(ctx, options)).matched).toBe(matched);
    const trace = traceCondition(tree, ctx, options);
    expect(trace.matched).toBe(matched);
    let depth = 0;
    for (let node: ConditionTrace | undefined = trace; node !== undefined; node = node.children?.[0]) depth++;
    expect(depth).toBe(tree.type === 'NOT' && !matched ? DEPTH + 2 : DEPTH + 1);
  });
});

describe('100,000-level trees in compiled rules', () => {
  it('compile and plan without recursion', () => {
    const tree = nestedNots(DEPTH, { type: 'cart.subtotal_gte', value: 500 });
    const plan = planCart(
      { baseCurrency: 'USD', rules: [{ id: 'deep', campaignId: 'c', conditionTree: tree, giftConfig: { type: 'fixed', gifts: [{ variantId: gid.variant(1), quantity: 1 }] }, options: {} }] },
      context([line()]),
      { trace: true },
    );
    expect(plan.results[0]?.matched).toBe(true);
    expect(plan.operations).toHaveLength(1);
  });
});
