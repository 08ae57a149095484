// Budgets (issue 13 part 2): options.budget and a campaign's budget. The server counts them at
// order intake and leaves a spent rule out of the payload (docs/promotions.md "Budgets"); the
// engine validates the field and must otherwise treat it as inert, so that a payload the server
// delivers gives exactly what it would give without the field. Table tests of the schema, and
// the laws: a budget never changes a plan, nor the checkout configuration's decisions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCheckoutConfig } from '../src/checkout-function.ts';
import { readRuleOptions } from '../src/compile/read-rule-parts.ts';
import type { Budget, RulesPayloadInput } from '../src/index.ts';
import { budgetSchema, planCart, ruleOptionsSchema } from '../src/index.ts';
import { contextArb } from './support/arbitraries.ts';
import { payload, rule } from './support/payloads.ts';

describe('schema', () => {
  it.each([
    ['window defaults to total', { maxGifts: 1 }, { maxGifts: 1, window: 'total' }],
    ['day', { maxGifts: 500, window: 'day' }, { maxGifts: 500, window: 'day' }],
    ['week', { maxGifts: 500, window: 'week' }, { maxGifts: 500, window: 'week' }],
    ['month', { maxGifts: 500, window: 'month' }, { maxGifts: 500, window: 'month' }],
    ['1,000,000,000 is the most', { maxGifts: 1_000_000_000 }, { maxGifts: 1_000_000_000, window: 'total' }],
  ])('%s', (_name, input, expected) => {
    expect(budgetSchema.parse(input)).toEqual(expected);
    expect(ruleOptionsSchema.parse({ budget: input }).budget).toEqual(expected);
  });

  it.each([
    ['maxGifts 0', { maxGifts: 0 }, ['budget', 'maxGifts']],
    ['maxGifts negative', { maxGifts: -5 }, ['budget', 'maxGifts']],
    ['maxGifts fractional', { maxGifts: 1.5 }, ['budget', 'maxGifts']],
    ['maxGifts past the most', { maxGifts: 1_000_000_001 }, ['budget', 'maxGifts']],
    ['maxGifts as text', { maxGifts: '10' }, ['budget', 'maxGifts']],
    ['maxGifts missing', { window: 'day' }, ['budget', 'maxGifts']],
    ['an unknown window', { maxGifts: 10, window: 'year' }, ['budget', 'window']],
    ['not an object', 10, ['budget']],
  ] as const)('rejects %s at its path', (_name, budget, path) => {
    expect(ruleOptionsSchema.safeParse({ budget }).error?.issues[0]?.path).toEqual(path);
  });

  it('absent stays absent', () => {
    expect(ruleOptionsSchema.parse({})).not.toHaveProperty('budget');
  });
});

const budgetArb = fc.record({ maxGifts: fc.integer({ min: 1, max: 1_000_000_000 }), window: fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'total' as const) });
const treeArb = fc.constantFrom({ type: 'cart.item_count_gte' as const, value: 1 }, { type: 'cart.subtotal_gte' as const, value: 5000 }, { type: 'cart.item_count_gte' as const, value: 3 });
const rulesArb = fc.array(fc.tuple(treeArb, fc.option(budgetArb, { nil: undefined }), fc.boolean()), { minLength: 1, maxLength: 6 });

function payloads(specs: ReadonlyArray<readonly [unknown, Budget | undefined, boolean]>): [RulesPayloadInput, RulesPayloadInput] {
  const make = (withBudgets: boolean) =>
    payload(
      specs.map(([tree, budget, exclusive], i) =>
        rule(`r${i}`, tree as never, { options: { ...(exclusive ? { exclusive: true } : {}), ...(withBudgets && budget ? { budget } : {}) } }),
      ),
    );
  return [make(true), make(false)];
}

describe('laws', () => {
  it('a budget never changes what the planner gives, adds or removes (the server decides by leaving spent rules out)', () => {
    fc.assert(
      fc.property(rulesArb, contextArb, (specs, ctx) => {
        const [budgeted, plain] = payloads(specs);
        expect(planCart(budgeted, ctx)).toEqual(planCart(plain, ctx));
      }),
      { numRuns: 300 },
    );
  });

  it('a budgeted rule is in the checkout configuration exactly as the same rule without one', () => {
    fc.assert(
      fc.property(rulesArb, (specs) => {
        const [budgeted, plain] = payloads(specs);
        expect(buildCheckoutConfig(budgeted)).toEqual(buildCheckoutConfig(plain));
      }),
      { numRuns: 200 },
    );
  });

  it("the plain reader (storefront, checkout) accepts a valid budget and refuses the options of an invalid one, as the schema does", () => {
    fc.assert(
      fc.property(fc.oneof(budgetArb, fc.anything()), (budget) => {
        const schema = ruleOptionsSchema.safeParse({ budget }).success;
        expect(readRuleOptions({ budget }) !== undefined).toBe(schema);
      }),
      { numRuns: 300 },
    );
  });
});
