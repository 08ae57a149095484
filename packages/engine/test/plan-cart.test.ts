import { describe, expect, it } from 'vitest';
import type { ConditionNode } from '../src/index.ts';
import { applyOperations, assignVariant, compileRules, fnv1a32, planCart } from '../src/index.ts';
import { context, giftLine, line } from './support/contexts.ts';
import { payload, rule } from './support/payloads.ts';
import { gid } from './support/trees.ts';

const over50: ConditionNode = { type: 'cart.subtotal_gte', value: 5000 };
const rich = context([line({ id: 'l1', price: 6000 })]);
const poor = context([line({ id: 'l1', price: 100 })]);

describe('planCart', () => {
  it('adds the gift of a matched auto-add rule with SPEC attributes', () => {
    const plan = planCart(payload([rule('r1', over50, { options: { discountTitle: 'Tote bag' } })]), rich);
    expect(plan.results).toEqual([{ ruleId: 'r1', campaignId: 'cmp_r1', matched: true, reasons: ['subtotal_at_or_above_threshold'] }]);
    expect(plan.operations).toEqual([
      {
        type: 'add',
        variantId: gid.variant(9001),
        quantity: 1,
        attributes: {
          _svc_campaign_id: 'cmp_r1',
          _svc_rule_id: 'r1',
          _svc_auto: 'true',
          _svc_discount_method: 'automatic',
          _svc_title: 'Tote bag',
          _svc_lock_quantity: 'true',
        },
      },
    ]);
  });

  it('does nothing when the gift is already there, removes it when the rule stops matching', () => {
    const rules = payload([rule('r1', over50)]);
    const gift = giftLine({ id: 'g1', quantity: 1 }, 'r1', 'cmp_r1');
    expect(planCart(rules, { ...rich, cart: { ...rich.cart, lines: [...rich.cart.lines, gift] } }).operations).toEqual([]);
    expect(planCart(rules, { ...poor, cart: { ...poor.cart, lines: [...poor.cart.lines, gift] } }).operations).toEqual([
      { type: 'remove', lineId: 'g1', ruleId: 'r1' },
    ]);
  });

  it('removes gift lines of rules gone from the payload, by index when a line has no id', () => {
    const gift = giftLine({}, 'gone', 'cmp_x');
    const plan = planCart(payload([]), context([line(), gift]));
    expect(plan.operations).toEqual([{ type: 'remove', lineId: '#1', ruleId: 'gone' }]);
  });

  it('leaves gift lines without a rule id alone', () => {
    const foreign = line({ attributes: { _svc_campaign_id: 'cmp_manual' } });
    expect(planCart(payload([]), context([foreign])).operations).toEqual([]);
  });

  it('offers the available gifts of a customer-choice rule until one is chosen', () => {
    const gifts = [{ variantId: gid.variant(1), quantity: 1 }, { variantId: gid.variant(2), quantity: 2 }, { variantId: gid.variant(3), quantity: 1 }];
    const rules = payload([rule('r1', over50, { giftConfig: { type: 'fixed', gifts }, options: { actionType: 'customer_choice' } })]);
    const plan = planCart(rules, rich, { availability: (variant) => variant !== gid.variant(2) });
    expect(plan.operations).toEqual([
      {
        type: 'choose',
        ruleId: 'r1',
        campaignId: 'cmp_r1',
        options: [{ variantId: gid.variant(1), quantity: 1 }, { variantId: gid.variant(3), quantity: 1 }],
        attributes: { _svc_campaign_id: 'cmp_r1', _svc_rule_id: 'r1', _svc_discount_method: 'automatic', _svc_title: 'Free gift' },
      },
    ]);
    const cart = applyOperations(rich.cart, plan.operations, { r1: gid.variant(3) });
    expect(cart.lines.at(-1)?.variantId).toBe(gid.variant(3));
    expect(planCart(rules, { ...rich, cart }).operations).toEqual([]);
  });

  it.each([
    ['first gift available', true, () => true, gid.variant(1)],
    ['first out of stock, fallback on', true, (v: string) => v !== gid.variant(1), gid.variant(2)],
    ['first out of stock, fallback off', false, (v: string) => v !== gid.variant(1), undefined],
    ['all out of stock', true, () => false, undefined],
  ])('fallbackOnOOS: %s', (_name, fallbackOnOOS, availability, expected) => {
    const gifts = [{ variantId: gid.variant(1), quantity: 1 }, { variantId: gid.variant(2), quantity: 1 }];
    const rules = payload([rule('r1', over50, { giftConfig: { type: 'fixed', gifts, fallbackOnOOS } })]);
    const adds = planCart(rules, rich, { availability }).operations;
    expect(adds.map((op) => (op.type === 'add' ? op.variantId : undefined))).toEqual(expected === undefined ? [] : [expected]);
  });

  it('skips rules outside their schedule window [startAt, endAt)', () => {
    const rules = payload([rule('r1', over50, { startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-02-01T00:00:00.000Z' })]);
    const at = (iso: string) => planCart(rules, rich, { now: new Date(iso) }).results[0];
    expect(at('2029-12-31T23:59:59.999Z')).toMatchObject({ matched: false, reasons: ['outside_schedule'] });
    expect(at('2030-01-01T00:00:00.000Z')).toMatchObject({ matched: true });
    expect(at('2030-02-01T00:00:00.000Z')).toMatchObject({ matched: false, reasons: ['outside_schedule'] });
  });

  it('skips disabled rules and rules with invalid options (fail closed)', () => {
    const rules = payload([rule('r1', over50, { enabled: false }), rule('r2', over50, { options: { discountValue: 500 } })]);
    expect(planCart(rules, rich).results.map((r) => r.reasons)).toEqual([['rule_disabled'], ['invalid_rule']]);
  });

  it('includes traces when asked', () => {
    const plan = planCart(payload([rule('r1', over50)]), rich, { trace: true });
    expect(plan.results[0]?.trace).toEqual({ type: 'cart.subtotal_gte', matched: true, reasons: ['subtotal_at_or_above_threshold'] });
  });
});

describe('experiments', () => {
  const experiment = { id: 'exp_1', campaignId: 'cmp', variants: [{ id: 'a', ruleId: 'ra', weight: 1 }, { id: 'b', ruleId: 'rb', weight: 3 }] };

  it('FNV-1a matches the reference vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
    expect(fnv1a32('é')).toBe(fnv1a32('\u00e9'));
  });

  it('assigns stably, by weight, and the first variant without a visitor', () => {
    expect(assignVariant(experiment, undefined)?.id).toBe('a');
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 4000; i++) {
      const variant = assignVariant(experiment, `visitor-${i}`);
      expect(assignVariant(experiment, `visitor-${i}`)).toBe(variant);
      if (variant?.id === 'a' || variant?.id === 'b') counts[variant.id]++;
    }
    expect(counts.b / 4000).toBeGreaterThan(0.7);
    expect(counts.b / 4000).toBeLessThan(0.8);
    expect(assignVariant({ ...experiment, variants: [] }, 'v')).toBeUndefined();
  });

  it('applies only the assigned variant rule for a visitor', () => {
    const rules = payload([rule('ra', over50), rule('rb', over50), rule('other', over50)], { experiments: [experiment] });
    for (const visitorId of ['v1', 'v2', 'v3', undefined]) {
      const assigned = assignVariant(experiment, visitorId)?.ruleId;
      const matched = planCart(rules, rich, { visitorId }).results.filter((r) => r.matched).map((r) => r.ruleId);
      expect(matched.sort()).toEqual([assigned, 'other'].sort());
    }
  });
});

describe('compileRules', () => {
  it('compiles a payload once per object and per version', () => {
    const first = payload([rule('r1', over50)], { version: 'etag-1' });
    expect(compileRules(first)).toBe(compileRules(first));
    expect(compileRules({ ...first })).toBe(compileRules(first));
    expect(compileRules({ ...first, version: 'etag-2' })).not.toBe(compileRules(first));
  });
});

describe('planCart trace node limit', () => {
  const notCode: ConditionNode = { type: 'NOT', child: { type: 'discount.code_present' } };
  const both: ConditionNode = { type: 'AND', children: [over50, notCode] };
  const rules = payload([rule('r1', both), rule('r2', both), rule('r3', over50)]);

  it('traces rules in order while their whole tree fits, then answers the root only, marked truncated', () => {
    // r1 takes 4 of 5 nodes; r2 (4 nodes) does not fit; r3 (1 node) still does.
    const plan = planCart(rules, rich, { trace: true, traceNodeLimit: 5 });
    expect(plan.results.map((r) => r.trace?.children?.length)).toEqual([2, undefined, undefined]);
    expect(plan.results[1]?.trace).toEqual({ type: 'AND', matched: true, reasons: plan.results[1]?.reasons, truncated: true });
    expect(plan.results[2]?.trace).toEqual({ type: 'cart.subtotal_gte', matched: true, reasons: ['subtotal_at_or_above_threshold'] });
  });

  it('changes no result or operation, and is unbounded by default', () => {
    const limited = planCart(rules, rich, { trace: true, traceNodeLimit: 0 });
    const full = planCart(rules, rich, { trace: true });
    const untraced = planCart(rules, rich);
    expect(full.results.every((r) => r.trace?.truncated === undefined)).toBe(true);
    expect(limited.results.every((r) => r.trace?.truncated === true)).toBe(true);
    const strip = (plan: typeof full) => ({ results: plan.results.map(({ trace: _t, ...rest }) => rest), operations: plan.operations });
    expect(strip(limited)).toEqual(strip(untraced));
    expect(strip(full)).toEqual(strip(untraced));
  });
});
