import { compileRules, evaluateRules } from '@gcrs/engine/planner';
import type { EvaluationContext, RuleResult } from '@gcrs/engine/planner';
import { describe, expect, it } from 'vitest';
import { progressSteps, progressToward } from '../src/progress.ts';
import type { StepRule } from '../src/progress.ts';

const MUG = 'gid://shopify/ProductVariant/11';
const TOTE = 'gid://shopify/ProductVariant/12';
const USD = { currency: 'USD', baseCurrency: 'USD', marketHandle: undefined };
const EUR = { currency: 'EUR', baseCurrency: 'USD', marketHandle: undefined };

const rule = (id: string, conditionTree: unknown, gifts: string[] = [MUG]): StepRule & { campaignId: string; giftConfig: { type: 'fixed'; gifts: Array<{ variantId: string; quantity: number }> }; options: Record<string, unknown> } => ({
  id,
  campaignId: 'cmp_1',
  conditionTree,
  giftConfig: { type: 'fixed', gifts: gifts.map((variantId) => ({ variantId, quantity: 1 })) },
  options: { actionType: 'auto_add', discountTitle: 'Free gift' },
});
const below = (ruleId: string): RuleResult => ({ ruleId, campaignId: 'cmp_1', matched: false, reasons: ['subtotal_below_threshold'] });

describe('progressSteps (the bar from the live rules)', () => {
  it("takes each rule's subtotal threshold and gifts, sorted, merging rules at the same amount", () => {
    const rules = [rule('r100', { type: 'cart.subtotal_gte', value: 10000 }, [TOTE]), rule('r50', { type: 'cart.subtotal_gte', value: 5000 }), rule('r50b', { type: 'cart.subtotal_gte', value: 5000 }, [TOTE])];
    expect(progressSteps(rules, rules.map((r) => below(r.id)), USD)).toEqual([
      { amountCents: 5000, ruleId: 'r50', gifts: [MUG, TOTE] },
      { amountCents: 10000, ruleId: 'r100', gifts: [TOTE] },
    ]);
  });

  it('resolves the threshold for the cart: currency override, market override, else none in a foreign currency', () => {
    const withOverrides = rule('r', { type: 'cart.subtotal_gte', value: 5000, currencyOverrides: { eur: 4500 }, marketOverrides: { FR: 4000 } });
    const plain = rule('p', { type: 'cart.subtotal_gte', value: 5000 });
    const results = [below('r'), below('p')];
    expect(progressSteps([withOverrides, plain], results, EUR).map((step) => [step.ruleId, step.amountCents])).toEqual([['r', 4500]]);
    expect(progressSteps([withOverrides], results, { ...EUR, marketHandle: ' fr ' })[0]?.amountCents).toBe(4000);
    expect(progressSteps([plain], results, { ...EUR, currency: 'gbp' })).toEqual([]);
    expect(progressSteps([plain], results, { ...USD, currency: ' usd ' })[0]?.amountCents).toBe(5000);
  });

  it('reads thresholds under AND and OR (the largest of a rule), never under NOT', () => {
    const nested = rule('n', { type: 'AND', children: [{ type: 'customer.logged_in' }, { type: 'OR', children: [{ type: 'cart.subtotal_gte', value: 3000 }, { type: 'cart.subtotal_gte', value: 7000 }] }] });
    const negated = rule('x', { type: 'NOT', child: { type: 'cart.subtotal_gte', value: 2000 } });
    const none = rule('i', { type: 'cart.item_count_gte', value: 3 });
    const invalid = rule('v', { type: 'cart.subtotal_gte', value: -5 });
    expect(progressSteps([nested, negated, none, invalid], ['n', 'x', 'i', 'v'].map(below), USD)).toEqual([{ amountCents: 7000, ruleId: 'n', gifts: [MUG] }]);
  });

  it('keeps only rules open to this shopper: matched, or failed on the subtotal', () => {
    const rules = ['a', 'b', 'c', 'd', 'e'].map((id, index) => rule(id, { type: 'cart.subtotal_gte', value: 1000 * (index + 1) }));
    const results: RuleResult[] = [
      { ruleId: 'a', campaignId: 'cmp_1', matched: true, reasons: ['subtotal_at_or_above_threshold'] },
      below('b'),
      { ruleId: 'c', campaignId: 'cmp_1', matched: false, reasons: ['experiment_variant_not_assigned'] },
      { ruleId: 'd', campaignId: 'cmp_1', matched: false, reasons: ['customer_tag_not_matched'] },
      // 'e' has no result (not in this pass): no step.
    ];
    expect(progressSteps(rules, results, USD).map((step) => step.ruleId)).toEqual(['a', 'b']);
  });

  it('shows every tier of a ladder (rules bounded by the next tier, or highest_tier stacking) at any subtotal, the passed ones reached', () => {
    const gte = (value: number) => ({ type: 'cart.subtotal_gte', value });
    const bounded = (value: number, next?: number) => ({ type: 'AND', children: next === undefined ? [gte(value)] : [gte(value), { type: 'NOT', child: gte(next) }] });
    const rules = [rule('t50', bounded(5000, 10000)), rule('t100', bounded(10000, 15000), [MUG, TOTE]), rule('t150', bounded(15000), [TOTE])];
    const compiled = compileRules({ rules, baseCurrency: 'USD' } as Parameters<typeof compileRules>[0]);
    for (const subtotal of [0, 4999, 5000, 12000, 16000]) {
      const ctx = { cart: { currency: 'USD', lines: [{ id: 'l1', productId: 'gid://shopify/Product/1', variantId: 'gid://shopify/ProductVariant/1', quantity: 1, price: subtotal, attributes: {} }] } } as unknown as EvaluationContext;
      const results = evaluateRules(compiled, ctx);
      expect(results.filter((result) => result.matched).length, String(subtotal)).toBe(subtotal >= 5000 ? 1 : 0);
      expect(progressSteps(rules, results, USD).map((step) => step.amountCents), String(subtotal)).toEqual([5000, 10000, 15000]);
    }
    const stacked = rules.map((r) => ({ ...r, conditionTree: gte(Number(r.id.slice(1)) * 100) }));
    const suppressed = evaluateRules(compileRules({ rules: stacked, baseCurrency: 'USD', shopSettings: { engine: { stacking: 'highest_tier' } } } as Parameters<typeof compileRules>[0]), {
      cart: { currency: 'USD', lines: [{ id: 'l1', productId: 'gid://shopify/Product/1', variantId: 'gid://shopify/ProductVariant/1', quantity: 1, price: 12000, attributes: {} }] },
    } as unknown as EvaluationContext);
    expect(suppressed.map((result) => result.reasons[0])).toEqual(['suppressed_by_higher_tier', 'subtotal_at_or_above_threshold', 'subtotal_below_threshold']);
    expect(progressSteps(stacked, suppressed, USD).map((step) => step.amountCents)).toEqual([5000, 10000, 15000]);
    // A shopper's-choice tier says so: it offers one of its gifts.
    const choice = { ...rule('c', gte(5000), [MUG, TOTE]), options: { actionType: 'customer_choice' } };
    expect(progressSteps([choice], [below('c')], USD)).toEqual([{ amountCents: 5000, ruleId: 'c', gifts: [MUG, TOTE], choice: true }]);
  });

  it('puts each step exactly where the engine starts to match the rule, in any currency', () => {
    const cases: Array<[string, number, Record<string, number> | undefined]> = [
      ['USD', 5000, undefined],
      ['EUR', 5000, { EUR: 4550 }],
      ['JPY', 5000, { JPY: 700 }],
    ];
    for (const [currency, value, currencyOverrides] of cases) {
      const payloadRule = rule('r', { type: 'cart.subtotal_gte', value, ...(currencyOverrides ? { currencyOverrides } : {}) });
      const compiled = compileRules({ rules: [payloadRule], baseCurrency: 'USD' } as Parameters<typeof compileRules>[0]);
      const evaluate = (subtotal: number) => {
        const ctx = { cart: { currency, lines: [{ id: 'l1', productId: 'gid://shopify/Product/1', variantId: 'gid://shopify/ProductVariant/1', quantity: 1, price: subtotal, attributes: {} }] } } as unknown as EvaluationContext;
        return evaluateRules(compiled, ctx);
      };
      const [step] = progressSteps([payloadRule], evaluate(1), { currency, baseCurrency: 'USD', marketHandle: undefined });
      if (step === undefined) throw new Error(`no step in ${currency}`);
      expect(evaluate(step.amountCents)[0]?.matched, currency).toBe(true);
      expect(evaluate(step.amountCents - 1)[0]?.matched, currency).toBe(false);
      expect(progressToward(step.amountCents - 1, [step]).remaining).toBe(1);
    }
  });
});
