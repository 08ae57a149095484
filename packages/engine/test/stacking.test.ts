// Stacking (issue 13 part 3): options.priority / options.exclusive and the shop setting
// engine.stacking. Table tests of stackRules and the planner, and the laws: an exclusive rule
// never adds gifts; stacking "all" without the new fields is today's behaviour exactly; the
// checkout function discounts exactly the rules the planner lets give.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCheckoutConfig, runGiftDiscount } from '../src/checkout-function.ts';
import type { RulesPayloadInput } from '../src/index.ts';
import { planCart, ruleOptionsSchema, shopSettingsSchema, stackRules } from '../src/index.ts';
import { contextArb } from './support/arbitraries.ts';
import { context, line } from './support/contexts.ts';
import { claimEveryGift, payload, rule } from './support/payloads.ts';
import { gid } from './support/trees.ts';

const always = { type: 'cart.item_count_gte' as const, value: 1 };
const never = { type: 'cart.item_count_gte' as const, value: 1000 };
const entry = (id: string, campaign: string, priority = 0, exclusive = false) => ({ id, campaign, priority, exclusive });

describe('stackRules', () => {
  it.each([
    ['all, nothing exclusive: nothing suppressed', [entry('a', 'c1'), entry('b', 'c1')], 'all', {}],
    ['an exclusive rule suppresses lower priorities', [entry('a', 'c1', 0), entry('x', 'c2', 5, true), entry('b', 'c3', 1)], 'all', { a: ['suppressed_by_exclusive', 'x'], b: ['suppressed_by_exclusive', 'x'] }],
    ['higher priorities still give', [entry('h', 'c1', 9), entry('x', 'c2', 5, true), entry('l', 'c3', 1)], 'all', { l: ['suppressed_by_exclusive', 'x'] }],
    ['ties: the earlier in payload order wins', [entry('a', 'c1', 0), entry('x', 'c2', 0, true), entry('y', 'c3', 0, true)], 'all', { y: ['suppressed_by_exclusive', 'x'] }],
    ['highest_tier: the last rule of a campaign', [entry('t1', 'c'), entry('t2', 'c'), entry('t3', 'c'), entry('o', 'd')], 'highest_tier', { t1: ['suppressed_by_higher_tier', 't3'], t2: ['suppressed_by_higher_tier', 't3'] }],
    ['highest_tier: priority before order', [entry('t1', 'c', 2), entry('t2', 'c', 1)], 'highest_tier', { t2: ['suppressed_by_higher_tier', 't1'] }],
    ['a tier loser suppresses nothing, even exclusive', [entry('t1', 'c', 0, true), entry('t2', 'c', 0), entry('o', 'd', -1)], 'highest_tier', { t1: ['suppressed_by_higher_tier', 't2'] }],
  ] as const)('%s', (_name, entries, stacking, expected) => {
    const suppressed = stackRules(entries, stacking);
    expect(Object.fromEntries([...suppressed].map(([id, s]) => [id, [s.reason, s.by]]))).toEqual(expected);
  });
});

describe('schemas', () => {
  it('priority is an integer within ±1,000,000, exclusive a boolean, stacking an enum; absent stays absent', () => {
    expect(ruleOptionsSchema.parse({})).not.toHaveProperty('priority');
    expect(ruleOptionsSchema.parse({ priority: -3, exclusive: true })).toMatchObject({ priority: -3, exclusive: true });
    expect(ruleOptionsSchema.safeParse({ priority: 1.5 }).error?.issues[0]?.path).toEqual(['priority']);
    expect(ruleOptionsSchema.safeParse({ priority: 1_000_001 }).error?.issues[0]?.path).toEqual(['priority']);
    expect(ruleOptionsSchema.safeParse({ exclusive: 'yes' }).error?.issues[0]?.path).toEqual(['exclusive']);
    expect(shopSettingsSchema.safeParse({ engine: { stacking: 'tiers' } }).error?.issues[0]?.path).toEqual(['engine', 'stacking']);
  });
});

describe('planCart with stacking', () => {
  const cart = context([line({ id: 'l1' })]);
  it('a suppressed rule says by whom and why, gets no add, and loses its gift line', () => {
    const rules = payload([rule('low', always), rule('vip', always, { options: { priority: 10, exclusive: true } }), rule('off', never, { options: { priority: 20, exclusive: true } })]);
    const plan = planCart(rules, cart);
    expect(plan.results.map((r) => [r.ruleId, r.matched, r.reasons, r.suppressedBy])).toEqual([
      ['low', false, ['suppressed_by_exclusive'], 'vip'],
      ['vip', true, ['item_count_reached'], undefined],
      ['off', false, ['item_count_below_threshold'], undefined],
    ]);
    expect(plan.operations.map((op) => (op.type === 'add' ? op.attributes._svc_rule_id : op.type))).toEqual(['vip']);
    const giftOfLow = line({ id: 'g', attributes: { _svc_campaign_id: 'cmp_low', _svc_rule_id: 'low' } });
    expect(planCart(rules, context([line({ id: 'l1' }), giftOfLow])).operations[0]).toEqual({ type: 'remove', lineId: 'g', ruleId: 'low' });
  });

  it('highest_tier gives only the last matching rule of a campaign', () => {
    const tier = (id: string, value: number) => ({ ...rule(id, { type: 'cart.subtotal_gte', value }), campaignId: 'cmp_tiers' });
    const rules = payload([tier('t50', 5000), tier('t100', 10_000), tier('t200', 20_000)], { shopSettings: { engine: { stacking: 'highest_tier' } } });
    const plan = planCart(rules, context([line({ price: 15_000 })]));
    expect(plan.results.map((r) => [r.ruleId, r.matched, r.suppressedBy])).toEqual([
      ['t50', false, 't100'],
      ['t100', true, undefined],
      ['t200', false, undefined],
    ]);
  });
});

type Spec = { tree: 0 | 1; campaign: number; priority: number; exclusive: boolean };
const specArb = fc.record({ tree: fc.constantFrom(0 as const, 1 as const), campaign: fc.integer({ min: 0, max: 2 }), priority: fc.integer({ min: -2, max: 2 }), exclusive: fc.boolean() });
const stackingArb = fc.constantFrom('all' as const, 'highest_tier' as const);
const toPayload = (specs: Spec[], stacking: 'all' | 'highest_tier', plain = false): RulesPayloadInput =>
  payload(
    specs.map((spec, i) => ({
      ...rule(`r${i}`, spec.tree === 1 ? always : never, plain ? {} : { options: { priority: spec.priority, exclusive: spec.exclusive } }),
      campaignId: `cmp_${spec.campaign}`,
      giftConfig: { type: 'fixed', gifts: [{ variantId: gid.variant(9000 + i), quantity: 1 }] },
    })),
    plain ? {} : { shopSettings: { engine: { stacking } } },
  );
const giving = (rules: RulesPayloadInput) => new Set(planCart(rules, context([line({ id: 'l1' })])).results.filter((r) => r.matched).map((r) => r.ruleId));

describe('laws', () => {
  it('an exclusive rule never adds gifts: what it gives is a subset of what the others would give, plus its own', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 8 }), stackingArb, fc.nat(), (specs, stacking, pick) => {
        const index = pick % specs.length;
        const without = specs.map((s, i) => (i === index ? { ...s, exclusive: false } : s));
        const withIt = specs.map((s, i) => (i === index ? { ...s, exclusive: true } : s));
        const before = giving(toPayload(without, stacking));
        for (const id of giving(toPayload(withIt, stacking))) expect(before.has(id)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('stacking "all" with priority 0 and no exclusive is today\'s behaviour exactly (against rules without the fields)', () => {
    fc.assert(
      fc.property(fc.array(specArb, { maxLength: 6 }), contextArb, (specs, ctx) => {
        const zeroed = specs.map((s) => ({ ...s, priority: 0, exclusive: false }));
        expect(planCart(toPayload(zeroed, 'all'), ctx)).toEqual(planCart(toPayload(specs, 'all', true), ctx));
      }),
      { numRuns: 300 },
    );
  });

  it('the checkout function discounts exactly the rules the planner lets give', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 8 }), stackingArb, (specs, stacking) => {
        const rules = toPayload(specs, stacking);
        const given = giving(rules);
        const { config } = buildCheckoutConfig({ ...rules, rules: rules.rules.map((r) => ({ ...r, campaignId: r.campaignId ?? '' })) });
        // A shopper claims every rule's gift, honest or not.
        const lines = claimEveryGift(rules.rules);
        const result = runGiftDiscount({ cart: { lines }, discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } } });
        const discounted = new Set(result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => `r${t.cartLine.id.slice('gid://shopify/CartLine/g'.length)}`))));
        expect(discounted).toEqual(given);
      }),
      { numRuns: 300 },
    );
  });
});
