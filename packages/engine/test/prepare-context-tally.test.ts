// tallyLine (prepare-context.ts) and treeNeeds' `lines` (tree-needs.ts): the checkout function
// prepares its cart without lines and tallies each one, handing the engine no line at all when
// no evaluated tree walks lines (issue 22, instructions). Both must decide exactly as
// prepareContext of the whole cart: the same compiled condition program runs on either.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileConditionProgram } from '../src/compile/condition-program.ts';
import { decodeTree, encodeTree } from '../src/checkout/compact-tree.ts';
import { treeNeeds } from '../src/checkout/tree-needs.ts';
import { isGiftLine, prepareContext, preparedLines, tallyLine } from '../src/evaluate/prepare-context.ts';
import type { PreparedContext } from '../src/evaluate/prepare-context.ts';
import { idKeyOf } from '../src/ids.ts';
import type { EvaluationContext } from '../src/index.ts';
import { contextArb, giftLineArb, treeArb } from './support/arbitraries.ts';

const options = { baseCurrency: 'USD' };

/** The context prepared without lines, then each non-gift line tallied (with it, or without when `keepLines` is false). */
function tallied(ctx: EvaluationContext, keepLines: boolean): PreparedContext {
  const prepared = prepareContext({ ...ctx, cart: { ...ctx.cart, lines: [] } }, options);
  for (const line of ctx.cart.lines) {
    if (isGiftLine(line)) continue;
    const quantity = typeof line.quantity === 'number' && Number.isFinite(line.quantity) ? line.quantity : 0;
    const plan = line.sellingPlanId;
    tallyLine(prepared, idKeyOf(line.productId), idKeyOf(line.variantId), quantity, line.price, plan != null && plan !== '', keepLines ? line : undefined);
  }
  return prepared;
}

const facts = (prepared: PreparedContext) => ({
  subtotal: prepared.subtotal,
  total: prepared.total,
  itemCount: prepared.itemCount,
  products: [...prepared.productQuantities],
  variants: [...prepared.variantQuantities],
  subscription: prepared.hasSubscriptionLine,
  lines: preparedLines(prepared),
});

const cartArb = fc
  .tuple(contextArb, fc.array(giftLineArb, { maxLength: 2 }), fc.nat())
  .map(([ctx, gifts, at]) => {
    const lines = [...ctx.cart.lines];
    for (const gift of gifts) lines.splice(at % (lines.length + 1), 0, gift);
    return { ...ctx, cart: { ...ctx.cart, lines } };
  });

describe('tallyLine', () => {
  it('gives the facts of prepareContext, and the same answer for every tree', () => {
    fc.assert(
      fc.property(cartArb, fc.array(treeArb, { minLength: 1, maxLength: 3 }), (ctx, trees) => {
        const whole = prepareContext(ctx, options);
        const lineByLine = tallied(ctx, true);
        expect(facts(lineByLine)).toEqual(facts(whole));
        for (const tree of trees) expect(compileConditionProgram(tree).run(lineByLine)).toEqual(compileConditionProgram(tree).run(whole));
      }),
      { numRuns: 400 },
    );
  });

  it('without the lines, still the same answer for every tree that does not walk lines (treeNeeds)', () => {
    let compared = 0;
    fc.assert(
      fc.property(cartArb, treeArb, (ctx, tree) => {
        const compact = encodeTree(tree);
        if (treeNeeds([compact]).lines) return;
        compared++;
        // The function runs the decoded compact tree; so does this.
        const program = compileConditionProgram(decodeTree(compact));
        expect(program.run(tallied(ctx, false))).toEqual(program.run(prepareContext(ctx, options)));
      }),
      { numRuns: 600 },
    );
    expect(compared).toBeGreaterThan(100);
  });
});
