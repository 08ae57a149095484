// Per-customer limits (issue 13 part 1): options.maxPerCustomer. Table tests of the schema,
// customerLimit and the planner, and the laws: lowering a customer's count never removes a
// gift; raising maxPerCustomer never removes a gift; a rule without maxPerCustomer behaves
// exactly as before whatever the counts; the checkout function discounts exactly what the
// planner gives for the same counts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCheckoutConfig, compactRules, encodeRule, runGiftDiscount } from '../src/checkout-function.ts';
import type { CompactRule, GiftFunctionInput, GiftFunctionLine } from '../src/checkout-function.ts';
import type { EvaluationContext, RulesPayloadInput } from '../src/index.ts';
import { customerLimit, planCart, ruleOptionsSchema } from '../src/index.ts';
import { readRuleOptions } from '../src/compile/read-rule-parts.ts';
import { contextArb } from './support/arbitraries.ts';
import { context, line } from './support/contexts.ts';
import { claimEveryGift, payload, rule } from './support/payloads.ts';
import { gid } from './support/trees.ts';

const always = { type: 'cart.item_count_gte' as const, value: 1 };
const never = { type: 'cart.item_count_gte' as const, value: 1000 };
const ada = { id: '501', loggedIn: true, tags: [] };

describe('schema', () => {
  it.each([
    ['absent stays absent', {}, undefined],
    ['1 is the least', { maxPerCustomer: 1 }, 1],
    ['1,000,000 is the most', { maxPerCustomer: 1_000_000 }, 1_000_000],
  ])('%s', (_name, input, expected) => {
    expect(ruleOptionsSchema.parse(input).maxPerCustomer).toBe(expected);
    expect(readRuleOptions(input)?.maxPerCustomer).toBe(expected);
  });

  it.each([0, -1, 1.5, 1_000_001, '2', null])('rejects %s at its path', (value) => {
    expect(ruleOptionsSchema.safeParse({ maxPerCustomer: value }).error?.issues[0]?.path).toEqual(['maxPerCustomer']);
    expect(readRuleOptions({ maxPerCustomer: value })).toBeUndefined();
  });
});

describe('customerLimit', () => {
  it.each([
    ['unknown customer', undefined, { used: null, reason: 'max_per_customer_unknown_customer' }],
    ['no record of the rule: 0 used', {}, { used: 0, reason: 'max_per_customer_below' }],
    ['below', { r: 1 }, { used: 1, reason: 'max_per_customer_below' }],
    ['at the limit', { r: 2 }, { used: 2, reason: 'max_per_customer_reached' }],
    ['over the limit', { r: 7 }, { used: 7, reason: 'max_per_customer_reached' }],
    ['a malformed count is an unknown customer', { r: -1 }, { used: null, reason: 'max_per_customer_unknown_customer' }],
    ['another rule\'s count does not count', { other: 5 }, { used: 0, reason: 'max_per_customer_below' }],
  ] as const)('%s', (_name, counts, expected) => {
    expect(customerLimit(2, counts, 'r')).toEqual({ maxPerCustomer: 2, ...expected });
  });
});

describe('planCart with maxPerCustomer', () => {
  const rules = payload([rule('once', always, { options: { maxPerCustomer: 1 } }), rule('plain', always)]);
  const cart = (customer: EvaluationContext['customer'], extra: EvaluationContext['cart']['lines'] = []) => context([line({ id: 'l1' }), ...extra], { customer });
  const summary = (ctx: EvaluationContext, redemptions?: Record<string, number>) =>
    planCart(rules, ctx, redemptions === undefined ? {} : { redemptions }).results.map((r) => [r.ruleId, r.matched, r.reasons, r.limit]);

  it.each([
    ['below the limit: gives, and says how much is used', cart(ada), {}, [true, ['item_count_reached'], { maxPerCustomer: 1, used: 0, reason: 'max_per_customer_below' }]],
    ['at the limit: nothing', cart(ada), { once: 1 }, [false, ['max_per_customer_reached'], { maxPerCustomer: 1, used: 1, reason: 'max_per_customer_reached' }]],
    ['anonymous cart: nothing (fail closed)', cart(null), {}, [false, ['max_per_customer_unknown_customer'], { maxPerCustomer: 1, used: null, reason: 'max_per_customer_unknown_customer' }]],
    ['logged out with an id: unknown', cart({ ...ada, loggedIn: false }), {}, [false, ['max_per_customer_unknown_customer'], { maxPerCustomer: 1, used: null, reason: 'max_per_customer_unknown_customer' }]],
    ['logged in without counts (headless): unknown', cart(ada), undefined, [false, ['max_per_customer_unknown_customer'], { maxPerCustomer: 1, used: null, reason: 'max_per_customer_unknown_customer' }]],
  ] as const)('%s', (_name, ctx, redemptions, expected) => {
    const [once, plain] = summary(ctx, redemptions);
    expect(once).toEqual(['once', ...expected]);
    // The rule without a limit gives whatever the counts.
    expect(plain).toEqual(['plain', true, ['item_count_reached'], undefined]);
  });

  it('a rule whose conditions did not match has no limit in its result', () => {
    const [result] = planCart(payload([rule('once', never, { options: { maxPerCustomer: 1 } })]), cart(ada), { redemptions: {} }).results;
    expect(result).toMatchObject({ matched: false, reasons: ['item_count_below_threshold'] });
    expect(result).not.toHaveProperty('limit');
  });

  it('at the limit: no add, its gift line is removed, and the trace still shows its conditions', () => {
    const gift = line({ id: 'g', variantId: gid.variant(9001), attributes: { _svc_campaign_id: 'cmp_once', _svc_rule_id: 'once' } });
    const plan = planCart(rules, cart(ada, [gift]), { redemptions: { once: 3 }, trace: true });
    expect(plan.operations).toEqual([{ type: 'remove', lineId: 'g', ruleId: 'once' }, expect.objectContaining({ type: 'add', attributes: expect.objectContaining({ _svc_rule_id: 'plain' }) })]);
    expect(plan.results[0]?.trace).toMatchObject({ type: 'cart.item_count_gte', matched: true });
  });

  it('a limited rule takes no part in stacking: an exclusive one at its limit suppresses nothing', () => {
    const stacked = payload([rule('vip', always, { options: { exclusive: true, priority: 5, maxPerCustomer: 1 } }), rule('plain', always)]);
    const given = (counts: Record<string, number>) => planCart(stacked, cart(ada), { redemptions: counts }).results.map((r) => [r.ruleId, r.matched, r.suppressedBy]);
    expect(given({})).toEqual([
      ['vip', true, undefined],
      ['plain', false, 'vip'],
    ]);
    expect(given({ vip: 1 })).toEqual([
      ['vip', false, undefined],
      ['plain', true, undefined],
    ]);
  });

  it('a repeatable gift at its limit has no repeat', () => {
    const repeat = payload([rule('rep', always, { options: { maxPerCustomer: 1 }, giftConfig: { type: 'fixed', gifts: [{ variantId: gid.variant(9001), quantity: 1 }], per: { every: 1, of: 'items', max: 3 } } })]);
    expect(planCart(repeat, cart(ada), { redemptions: { rep: 0 } }).results[0]?.repeat?.sets).toBe(1);
    expect(planCart(repeat, cart(ada), { redemptions: { rep: 1 } }).results[0]).not.toHaveProperty('repeat');
  });
});

type Spec = { tree: 0 | 1; max: number | undefined; exclusive: boolean };
const specArb = fc.record({ tree: fc.constantFrom(0 as const, 1 as const), max: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), exclusive: fc.boolean() });
const countsArb = (n: number) => fc.array(fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }), { minLength: n, maxLength: n });
const toPayload = (specs: Spec[]): RulesPayloadInput =>
  payload(
    specs.map((spec, i) => ({
      ...rule(`r${i}`, spec.tree === 1 ? always : never, {
        options: { ...(spec.max === undefined ? {} : { maxPerCustomer: spec.max }), ...(spec.exclusive ? { exclusive: true } : {}) },
      }),
      campaignId: `cmp_${i % 2}`,
      giftConfig: { type: 'fixed', gifts: [{ variantId: gid.variant(9000 + i), quantity: 1 }] },
    })),
  );
const countsOf = (counts: Array<number | undefined>) => Object.fromEntries(counts.flatMap((count, i) => (count === undefined ? [] : [[`r${i}`, count]])));
const adaCart = context([line({ id: 'l1' })], { customer: ada });
const giving = (rules: RulesPayloadInput, counts: Record<string, number> | undefined, ctx = adaCart) =>
  new Set(planCart(rules, ctx, counts === undefined ? {} : { redemptions: counts }).results.filter((r) => r.matched).map((r) => r.ruleId));
const specsAndCounts = fc.array(specArb, { minLength: 1, maxLength: 6 }).chain((specs) => fc.tuple(fc.constant(specs), countsArb(specs.length)));

describe('laws', () => {
  it('lowering a customer\'s count never removes a gift (without exclusive rules, whose own gift can take others\')', () => {
    fc.assert(
      fc.property(specsAndCounts, fc.nat(), (input, pick) => {
        const [specs, counts] = input;
        const plain = specs.map((s) => ({ ...s, exclusive: false }));
        const index = pick % specs.length;
        const lowered = counts.map((c, i) => (i === index && c !== undefined ? Math.max(0, c - 1 - (pick % 3)) : c));
        const before = giving(toPayload(plain), countsOf(counts));
        for (const id of before) expect(giving(toPayload(plain), countsOf(lowered)).has(id)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lowering the count of a rule gives it or changes nothing for it; with exclusive rules only what it suppresses can go', () => {
    fc.assert(
      fc.property(specsAndCounts, fc.nat(), (input, pick) => {
        const [specs, counts] = input;
        const index = pick % specs.length;
        const lowered = counts.map((c, i) => (i === index ? 0 : c));
        const before = giving(toPayload(specs), countsOf(counts));
        const after = giving(toPayload(specs), countsOf(lowered));
        if (before.has(`r${index}`)) expect(after).toEqual(before);
        else for (const id of before) if (!after.has(id)) expect(after.has(`r${index}`) && specs[index]?.exclusive).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('raising maxPerCustomer never removes a gift (without exclusive rules)', () => {
    fc.assert(
      fc.property(specsAndCounts, fc.nat(), (input, pick) => {
        const [specs, counts] = input;
        const plain = specs.map((s) => ({ ...s, exclusive: false }));
        const index = pick % specs.length;
        const raised = plain.map((s, i) => (i === index && s.max !== undefined ? { ...s, max: s.max + 1 + (pick % 3) } : s));
        const before = giving(toPayload(plain), countsOf(counts));
        for (const id of before) expect(giving(toPayload(raised), countsOf(counts)).has(id)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('rules without maxPerCustomer behave exactly as before, whatever the counts and the customer', () => {
    fc.assert(
      fc.property(fc.array(specArb, { maxLength: 6 }), contextArb, fc.dictionary(fc.constantFrom('r0', 'r1', 'r2', 'other'), fc.integer({ min: 0, max: 9 })), (specs, ctx, counts) => {
        const rules = toPayload(specs.map((s) => ({ ...s, max: undefined })));
        const baseline = planCart(rules, ctx);
        expect(planCart(rules, ctx, { redemptions: counts })).toEqual(baseline);
        expect(planCart(rules, { ...ctx, customer: ada }, { redemptions: counts })).toEqual(planCart(rules, { ...ctx, customer: ada }));
      }),
      { numRuns: 300 },
    );
  });

  it('the checkout function discounts exactly what the planner gives for the same counts and buyer', () => {
    const buyerArb = fc.constantFrom('ada' as const, 'logged_out' as const, 'anonymous' as const);
    fc.assert(
      fc.property(specsAndCounts, buyerArb, fc.boolean(), (input, buyer, noMetafield) => {
        const [specs, counts] = input;
        const rules = toPayload(specs);
        const customer = buyer === 'anonymous' ? null : { ...ada, loggedIn: buyer === 'ada' };
        const stored = countsOf(counts);
        // No metafield yet is the same as no redemptions.
        const given = giving(rules, noMetafield ? {} : stored, context([line({ id: 'l1' })], { customer }));
        const { config } = buildCheckoutConfig({ ...rules, rules: rules.rules.map((r) => ({ ...r, campaignId: r.campaignId ?? '' })) });
        const lines = claimEveryGift(rules.rules);
        const buyerIdentity =
          customer === null
            ? null
            : { isAuthenticated: customer.loggedIn, customer: { id: 'gid://shopify/Customer/501', hasTags: [], metafield: noMetafield ? null : { value: JSON.stringify(stored) } } };
        const fnInput: GiftFunctionInput = { cart: { lines, buyerIdentity }, discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } } };
        const result = runGiftDiscount(fnInput);
        const discounted = new Set(result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => `r${t.cartLine.id.slice('gid://shopify/CartLine/g'.length)}`))));
        expect(discounted).toEqual(given);
      }),
      { numRuns: 300 },
    );
  });
});

describe('compact configuration', () => {
  it('carries maxPerCustomer as the 10th element, null-padding what is absent before it', () => {
    const { config } = buildCheckoutConfig(payload([{ ...rule('a', always, { options: { maxPerCustomer: 3 } }), campaignId: 'c' }, { ...rule('b', always), campaignId: 'c' }]));
    expect(compactRules(config)[0]?.slice(4)).toEqual([100, 0, null, null, null, 3]);
    expect(compactRules(config)[1]).toHaveLength(4);
  });

  it('a malformed limit drops the rule; a malformed metafield gives no limited rule but the others', () => {
    const rules = payload([{ ...rule('a', always, { options: { maxPerCustomer: 3 } }), campaignId: 'c' }, { ...rule('b', always), campaignId: 'c' }]);
    const { config } = buildCheckoutConfig(rules);
    const gift = (id: string, variant: number): GiftFunctionLine => ({
      id: `gid://shopify/CartLine/${id}`,
      quantity: 1,
      cost: { amountPerQuantity: { amount: '20.00', currencyCode: 'USD' } },
      merchandise: { id: gid.variant(variant), product: { id: gid.product(900) } },
      campaignId: { value: 'c' },
      ruleId: { value: id },
    });
    const lines: GiftFunctionLine[] = [
      { id: 'gid://shopify/CartLine/l1', quantity: 1, cost: { amountPerQuantity: { amount: '10.00', currencyCode: 'USD' } }, merchandise: { id: gid.variant(11), product: { id: gid.product(1) } } },
      gift('a', 9001),
      gift('b', 9001),
    ];
    const run = (value: string | null, cfg = config) =>
      runGiftDiscount({
        cart: { lines, buyerIdentity: { isAuthenticated: true, customer: { id: 'gid://shopify/Customer/1', metafield: value === null ? null : { value } } } },
        discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: cfg } },
      }).operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => t.cartLine.id.slice(-1))));
    expect(run(null)).toEqual(['a', 'b']);
    expect(run('{"a":2}')).toEqual(['a', 'b']);
    expect(run('{"a":3}')).toEqual(['b']);
    for (const bad of ['{', '[1]', '{"a":"1"}', '{"a":-1}', '{"x":1.5}', '7']) expect(run(bad), bad).toEqual(['b']);
    const broken = { ...config, r: Object.fromEntries(compactRules(config).map((r, i) => [String(r?.[0]), encodeRule((i === 0 ? [...(r ?? []).slice(0, 9), 0] : r) as CompactRule)])) };
    expect(run(null, broken)).toEqual(['b']);
  });
});
