import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConditionNode, EvaluationContext } from '../src/index.ts';
import { evaluateCondition, prepareContext } from '../src/index.ts';
import { contextArb, giftLineArb, leafArb, treeArb } from './support/arbitraries.ts';
import { evaluateAllWays } from './support/evaluators.ts';

const options = { baseCurrency: 'USD' };
const matches = (tree: ConditionNode, ctx: EvaluationContext) => evaluateCondition(tree, ctx, options).matched;
const runs = { numRuns: 300 };

describe('laws of the evaluator', () => {
  it('De Morgan: NOT(AND(a,b)) = OR(NOT a, NOT b) and NOT(OR(a,b)) = AND(NOT a, NOT b)', () => {
    fc.assert(
      fc.property(treeArb, treeArb, contextArb, (a, b, ctx) => {
        const notA: ConditionNode = { type: 'NOT', child: a };
        const notB: ConditionNode = { type: 'NOT', child: b };
        expect(matches({ type: 'NOT', child: { type: 'AND', children: [a, b] } }, ctx)).toBe(
          matches({ type: 'OR', children: [notA, notB] }, ctx),
        );
        expect(matches({ type: 'NOT', child: { type: 'OR', children: [a, b] } }, ctx)).toBe(
          matches({ type: 'AND', children: [notA, notB] }, ctx),
        );
      }),
      runs,
    );
  });

  it('double negation: NOT(NOT a) = a', () => {
    fc.assert(
      fc.property(treeArb, contextArb, (a, ctx) => {
        expect(matches({ type: 'NOT', child: { type: 'NOT', child: a } }, ctx)).toBe(matches(a, ctx));
      }),
      runs,
    );
  });

  it('AND of subtotal bounds is the inclusive band x <= subtotal <= y in base currency', () => {
    fc.assert(
      fc.property(fc.nat(20_000), fc.nat(20_000), contextArb, (x, y, generated) => {
        const ctx = { ...generated, cart: { ...generated.cart, currency: 'USD' } };
        const band: ConditionNode = {
          type: 'AND',
          children: [{ type: 'cart.subtotal_gte', value: x }, { type: 'cart.subtotal_lte', value: y }],
        };
        const subtotal = prepareContext(ctx, options).subtotal;
        expect(matches(band, ctx)).toBe(x <= subtotal && subtotal <= y);
      }),
      runs,
    );
  });

  it('adding gift lines never changes a result', () => {
    fc.assert(
      fc.property(treeArb, contextArb, fc.array(giftLineArb, { minLength: 1, maxLength: 3 }), fc.nat(), (tree, ctx, gifts, at) => {
        const lines = [...ctx.cart.lines];
        for (const gift of gifts) lines.splice(at % (lines.length + 1), 0, gift);
        const withGifts = { ...ctx, cart: { ...ctx.cart, lines } };
        expect(evaluateCondition(tree, withGifts, options)).toEqual(evaluateCondition(tree, ctx, options));
      }),
      runs,
    );
  });

  it('short-circuit, trace and compiled program agree', () => {
    fc.assert(
      fc.property(fc.oneof(treeArb, leafArb), contextArb, (tree, ctx) => {
        const { shortCircuit, trace, compiled } = evaluateAllWays(tree, ctx, options);
        expect(trace.matched).toBe(shortCircuit.matched);
        expect(compiled).toEqual(shortCircuit);
      }),
      { numRuns: 500 },
    );
  });
});
