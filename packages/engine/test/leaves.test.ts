import { describe, expect, it } from 'vitest';
import type { ConditionNode } from '../src/index.ts';
import { evaluateCondition } from '../src/index.ts';
import { context, line } from './support/contexts.ts';
import { evaluateAllWays } from './support/evaluators.ts';
import { LEAF_CASE_GROUPS } from './support/leaf-cases.ts';

describe.each(LEAF_CASE_GROUPS)('%s', (_group, cases) => {
  it.each(cases)('%s', (_name, tree, ctx, matched, reason) => {
    const { shortCircuit, trace, compiled } = evaluateAllWays(tree, ctx, { baseCurrency: 'USD' });
    expect(shortCircuit).toEqual({ matched, reasons: [reason] });
    expect(compiled).toEqual(shortCircuit);
    expect(trace.matched).toBe(matched);
  });
});

describe('discounted prices', () => {
  const ctx = context([line({ price: 3000, discountedPrice: 2000, quantity: 2 }), line({ price: 500 })]);
  it('uses price by default and discountedPrice when asked', () => {
    const tree: ConditionNode = { type: 'cart.subtotal_gte', value: 6000 };
    expect(evaluateCondition(tree, ctx, { baseCurrency: 'USD' }).matched).toBe(true);
    expect(evaluateCondition(tree, ctx, { baseCurrency: 'USD', useDiscountedPrices: true }).matched).toBe(false);
    expect(evaluateCondition({ type: 'cart.subtotal_gte', value: 4500 }, ctx, { baseCurrency: 'usd', useDiscountedPrices: true }).matched).toBe(true);
  });
});

describe('reasons of combinators', () => {
  const ctx = context([line({ price: 2500, quantity: 2 })]);
  it('a failed AND keeps the failing child, a matched OR the matching child', () => {
    const failing: ConditionNode = { type: 'line.has_product_id', value: '99' };
    const passing: ConditionNode = { type: 'cart.subtotal_gte', value: 100 };
    expect(evaluateCondition({ type: 'AND', children: [passing, failing, passing] }, ctx, { baseCurrency: 'USD' }))
      .toEqual({ matched: false, reasons: ['product_not_in_cart'] });
    expect(evaluateCondition({ type: 'OR', children: [failing, passing, failing] }, ctx, { baseCurrency: 'USD' }))
      .toEqual({ matched: true, reasons: ['subtotal_at_or_above_threshold'] });
    expect(evaluateCondition({ type: 'OR', children: [failing, { type: 'AND', children: [] }] }, ctx, { baseCurrency: 'USD' }))
      .toEqual({ matched: false, reasons: ['product_not_in_cart', 'empty_children'] });
  });

  it('traces every child', () => {
    const tree: ConditionNode = { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 9999 }, { type: 'discount.code_present' }] };
    expect(evaluateAllWays(tree, ctx, { baseCurrency: 'USD' }).trace).toEqual({
      type: 'AND', matched: false, reasons: ['child_not_matched'], children: [
        { type: 'cart.subtotal_gte', matched: false, reasons: ['subtotal_below_threshold'] },
        { type: 'discount.code_present', matched: false, reasons: ['no_discount_code'] },
      ],
    });
  });
});
