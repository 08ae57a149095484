import fc from 'fast-check';
import { evaluateCondition } from '@gcrs/engine';
import { buildCheckoutConfig, runGiftDiscount } from '@gcrs/engine/checkout';
import type { ConditionNode } from '@gcrs/engine';
import { describe, expect, it } from 'vitest';
import { ladderProblem, ladderToRules, rulesToLadder } from '../../app/src/pages/ladder/ladder-rules.ts';
import type { LadderTier } from '../../app/src/pages/ladder/ladder-rules.ts';

const variant = (n: number) => `gid://shopify/ProductVariant/${n}`;
const giftArb = fc.record({ variantId: fc.integer({ min: 1, max: 1e9 }).map(variant), quantity: fc.integer({ min: 1, max: 5 }) });
const overridesArb = fc.option(fc.dictionary(fc.constantFrom('EUR', 'GBP', 'JPY'), fc.integer({ min: 1, max: 1e6 }), { minKeys: 1 }), { nil: undefined });

const idArb = fc.string({ minLength: 1, maxLength: 8 }).map((s) => `rul_${s}`);

/** One tier at `value`: 1..3 gifts, added or chosen, with its rules' ids (as read back) or none (new). */
const tierArb = (value: number): fc.Arbitrary<LadderTier> =>
  fc
    .record({ name: fc.string({ minLength: 1, maxLength: 20 }), threshold: overridesArb.map((currencyOverrides) => ({ value, ...(currencyOverrides ? { currencyOverrides } : {}) })), gifts: fc.array(giftArb, { minLength: 1, maxLength: 3 }), choice: fc.boolean() })
    .chain((tier) => fc.option(fc.uniqueArray(idArb, { minLength: tier.choice ? 1 : tier.gifts.length, maxLength: tier.choice ? 1 : tier.gifts.length }), { nil: undefined }).map((ruleIds) => (ruleIds ? { ruleIds, ...tier } : tier)));

/** Any valid ladder: 2..6 tiers, thresholds strictly rising. */
const ladderArb: fc.Arbitrary<LadderTier[]> = fc
  .uniqueArray(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 2, maxLength: 6 })
  .chain((amounts) => fc.tuple(...[...amounts].sort((a, b) => a - b).map(tierArb)))
  .filter((tiers) => ladderProblem(tiers) === undefined);

/** A rule as the server reads it back: its own field order, plus fields the ladder does not write. */
const asRead = (rule: ReturnType<typeof ladderToRules>[number]) => ({ campaignId: 'cmp_1', options: { ...rule.options }, giftConfig: JSON.parse(JSON.stringify(rule.giftConfig)), conditionTree: JSON.parse(JSON.stringify(rule.conditionTree)), enabled: rule.enabled, name: rule.name, id: rule.id });

const usdCart = (subtotal: number) => ({ cart: { currency: 'USD', lines: [{ productId: '1', variantId: '2', quantity: 1, price: subtotal }] } });

describe('tier ladder <-> rules', () => {
  it('any ladder saved as rules and read back is the same ladder', () => {
    fc.assert(
      fc.property(ladderArb, (tiers) => {
        expect(rulesToLadder(ladderToRules(tiers).map(asRead))).toEqual(tiers);
      }),
      { numRuns: 300 },
    );
  });

  it('any rules read as a ladder are exactly the rules that ladder writes (nothing set elsewhere is lost)', () => {
    fc.assert(
      fc.property(ladderArb, fc.nat(), fc.constantFrom('budget', 'disabled', 'order', 'leaf', 'fallback', 'discount'), (tiers, at, change) => {
        const rules = ladderToRules(tiers).map(asRead);
        const index = at % rules.length;
        const rule = rules[index] as { options: object; enabled: boolean; conditionTree: { children: unknown[] }; giftConfig: object };
        if (change === 'budget') rule.options = { ...rule.options, budget: { maxGifts: 5, window: 'total' } };
        if (change === 'disabled') rule.enabled = false;
        if (change === 'order') rules.reverse();
        if (change === 'leaf') rule.conditionTree.children.push({ type: 'customer.logged_in' });
        if (change === 'fallback') rule.giftConfig = { ...rule.giftConfig, fallbackOnOOS: true };
        if (change === 'discount') rule.options = { ...rule.options, discountValue: 50 };
        const read = rulesToLadder(rules);
        expect(read).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('for any subtotal exactly the highest tier reached matches, and below the first none', () => {
    fc.assert(
      fc.property(ladderArb, fc.integer({ min: 0, max: 11_000_000 }), (tiers, subtotal) => {
        const rules = ladderToRules(tiers);
        const given = rules.filter((rule) => evaluateCondition(rule.conditionTree as ConditionNode, usdCart(subtotal), { baseCurrency: 'USD' }).matched);
        const reached = tiers.findLast((tier) => tier.threshold.value <= subtotal);
        // The matching rules are exactly the highest reached tier's: all its gifts added, or one choice of them.
        expect(given.flatMap((rule) => rule.giftConfig.gifts)).toEqual(reached?.gifts ?? []);
        expect(given.length).toBe(reached === undefined ? 0 : reached.choice ? 1 : reached.gifts.length);
      }),
      { numRuns: 300 },
    );
  });

  it('at checkout, a shopper holding every tier\'s gifts gets only the highest reached tier\'s discounted', () => {
    fc.assert(
      fc.property(ladderArb, fc.integer({ min: 0, max: 11_000_000 }), (tiers, subtotal) => {
        const rules = ladderToRules(tiers).map((rule, index) => ({ ...rule, id: `r${index}`, campaignId: 'cmp_ladder' }));
        const { config } = buildCheckoutConfig({ baseCurrency: 'USD', rules } as never);
        const money = (minor: number) => ({ amountPerQuantity: { amount: (minor / 100).toFixed(2), currencyCode: 'USD' } });
        // One line of each rule's first gift, claimed by its rule.
        const lines = [
          { id: 'gid://shopify/CartLine/buy', quantity: 1, cost: money(subtotal), merchandise: { id: variant(1), product: { id: 'gid://shopify/Product/1' } } },
          ...rules.map((rule, index) => ({
            id: `gid://shopify/CartLine/${index}`,
            quantity: 1,
            cost: money(500),
            merchandise: { id: rule.giftConfig.gifts[0]?.variantId ?? '', product: { id: 'gid://shopify/Product/2' } },
            campaignId: { value: 'cmp_ladder' },
            ruleId: { value: rule.id },
          })),
        ];
        const result = runGiftDiscount({ cart: { lines }, discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } } } as never);
        const discounted = result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => Number(t.cartLine.id.split('/').at(-1)))));
        const reached = tiers.findLastIndex((tier) => tier.threshold.value <= subtotal);
        // The rules are written tier by tier: one per added gift, one for a choice.
        const tierOf = tiers.flatMap((tier, t) => Array.from({ length: tier.choice ? 1 : tier.gifts.length }, () => t));
        const reachedRules = tierOf.flatMap((t, index) => (t === reached ? [index] : []));
        expect(discounted.sort((a, b) => a - b)).toEqual(reachedRules);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses what is not a ladder, in words', () => {
    const mug = [{ variantId: variant(1), quantity: 1 }];
    const tier = (value: number, gifts = mug): LadderTier => ({ name: 'Tier', threshold: { value }, gifts, choice: false });
    expect(ladderProblem([])).toBe('A ladder has at least two tiers: add one, or make a single gift with New campaign.');
    expect(ladderProblem([tier(5000)])).toBe('A ladder has at least two tiers: add one, or make a single gift with New campaign.');
    // So the campaign editor's one-rule campaign is never taken for a ladder.
    expect(rulesToLadder(ladderToRules([tier(5000)]))).toBeUndefined();
    expect(ladderProblem([tier(5000), tier(5000)])).toBe('Tier 2 must ask for more than tier 1 does.');
    expect(ladderProblem([tier(5000), tier(10000, [])])).toBe('Tier 2 has no gift.');
    expect(ladderProblem([tier(Number.NaN), tier(10000)])).toBe('Tier 1: enter the amount to spend.');
    const eur = (value: number, EUR: number): LadderTier => ({ ...tier(value), threshold: { value, currencyOverrides: { EUR } } });
    expect(ladderProblem([eur(5000, 4500), eur(10000, 4500)])).toBe('Tier 2 must ask for more EUR than tier 1 does.');
    expect(ladderProblem([eur(5000, 4500), eur(10000, 9000), tier(15000)])).toBeUndefined();
    expect(rulesToLadder([])).toBeUndefined();
    const ladder = [tier(5000), { name: 'Spend 100', threshold: { value: 10000 }, gifts: [...mug, { variantId: variant(2), quantity: 1 }], choice: false }];
    const written = ladderToRules(ladder);
    expect(written.map((rule) => [rule.name, rule.giftConfig.gifts.length])).toEqual([
      ['Tier', 1],
      ['Spend 100 · gift 1', 1],
      ['Spend 100 · gift 2', 1],
    ]);
    expect(rulesToLadder(written)).toEqual(ladder);
    // One of a tier's rules renamed in the full editor: no longer what the ladder writes.
    expect(rulesToLadder(written.map((rule, index) => (index === 2 ? { ...rule, name: 'Tote' } : rule)))).toBeUndefined();
    expect(rulesToLadder([{ name: 'x', enabled: true, conditionTree: { type: 'cart.subtotal_gte', value: 1 }, giftConfig: { gifts: mug }, options: {} }])).toBeUndefined();
  });
});
