import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CartLine, RulesPayloadInput } from '../src/index.ts';
import { applyOperations, compileRules, planCart } from '../src/index.ts';
import { contextArb, treeArb } from './support/arbitraries.ts';
import { gid } from './support/trees.ts';

const giftArb = fc.record({ variantId: fc.integer({ min: 1, max: 4 }).map((n) => gid.variant(900 + n)), quantity: fc.integer({ min: 1, max: 2 }) });

const payloadArb: fc.Arbitrary<RulesPayloadInput> = fc
  .record({
    rules: fc.array(
      fc.record({
        tree: treeArb,
        gifts: fc.array(giftArb, { minLength: 1, maxLength: 3 }),
        fallbackOnOOS: fc.boolean(),
        actionType: fc.constantFrom<'auto_add' | 'customer_choice'>('auto_add', 'customer_choice'),
        enabled: fc.boolean(),
        lockQuantity: fc.constantFrom(undefined, true, false),
      }),
      { maxLength: 4 },
    ),
    withExperiment: fc.boolean(),
  })
  .map(({ rules, withExperiment }) => ({
    baseCurrency: 'USD',
    rules: rules.map((r, i) => ({
      id: `r${i}`,
      campaignId: `c${i % 2}`,
      enabled: r.enabled,
      conditionTree: r.tree,
      giftConfig: { type: 'fixed' as const, gifts: r.gifts, fallbackOnOOS: r.fallbackOnOOS },
      options: { actionType: r.actionType, ...(r.lockQuantity === undefined ? {} : { lockQuantity: r.lockQuantity }) },
    })),
    ...(withExperiment
      ? { experiments: [{ id: 'e', campaignId: 'c0', variants: [{ id: 'a', ruleId: 'r0', weight: 1 }, { id: 'b', ruleId: 'r2', weight: 2 }] }] }
      : {}),
  }));

// Gift lines already in the cart: of current rules (several of one rule: duplicated claims), of a
// vanished rule, and without a rule id, at any quantity (a shopper may have changed it).
const existingGiftArb = fc.record({
  rule: fc.constantFrom('r0', 'r1', 'r2', 'r3', 'gone', undefined),
  withId: fc.boolean(),
  variant: fc.integer({ min: 1, max: 4 }),
  quantity: fc.integer({ min: 1, max: 3 }),
});

describe('planCart idempotence', () => {
  it('applying the operations and planning again yields no operations', () => {
    fc.assert(
      fc.property(
        payloadArb,
        contextArb,
        fc.array(existingGiftArb, { maxLength: 3 }),
        fc.func(fc.boolean()),
        fc.option(fc.string({ maxLength: 4 }), { nil: undefined }),
        (rules, ctx, existing, stock, visitorId) => {
          const giftLines = existing.map(({ rule, withId, variant, quantity }, i): CartLine => ({
            ...(withId ? { id: `existing-${i}` } : {}),
            productId: gid.product(900),
            variantId: gid.variant(900 + variant),
            quantity,
            price: 100,
            attributes: rule === undefined ? { _svc_campaign_id: 'manual' } : { _svc_campaign_id: 'c0', _svc_rule_id: rule },
          }));
          const start = { ...ctx, cart: { ...ctx.cart, lines: [...ctx.cart.lines, ...giftLines] } };
          const options = { visitorId, availability: (variant: string) => stock(variant) };
          const compiled = compileRules(rules);
          const first = planCart(compiled, start, options);
          const cart = applyOperations(start.cart, first.operations, (op) => op.options[0]?.variantId);
          const second = planCart(compiled, { ...start, cart }, options);
          expect(second.operations).toEqual([]);
          expect(second.results).toEqual(first.results);
        },
      ),
      { numRuns: 300 },
    );
  });
});
