/** offeredRule (src/rules/gift-stock.ts): what a rule offers given the sold-out gift variants. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../src/campaigns/store.ts';
import { offeredRule } from '../../src/rules/gift-stock.ts';

const gid = (n: number) => `gid://shopify/ProductVariant/${n}`;
const ruleOf = (gifts: number[], fallbackOnOOS: boolean, actionType: 'auto_add' | 'customer_choice' = 'auto_add'): RuleRecord => ({
  id: 'rul_1',
  campaignId: 'cmp_1',
  name: 'r',
  enabled: true,
  conditionTree: { type: 'cart.subtotal_gte', value: 1 },
  giftConfig: { type: 'fixed', gifts: gifts.map((n) => ({ variantId: gid(n), quantity: 1 })), fallbackOnOOS },
  options: { actionType, discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Gift' },
  createdAt: new Date(0),
  updatedAt: new Date(0),
});
const giftsOf = (rule: RuleRecord | undefined) => rule?.giftConfig.gifts.map((gift) => Number(gift.variantId.split('/').pop()));

describe('offeredRule', () => {
  it.each([
    ['nothing sold out: the rule itself', [1, 2], false, 'auto_add', [], [1, 2]],
    ['fallback: the first in stock leads', [1, 2, 3], true, 'auto_add', ['1'], [2, 3]],
    ['fallback, every gift sold out: left out', [1, 2], true, 'auto_add', ['1', '2'], undefined],
    ['no fallback, first sold out: left out', [1, 2], false, 'auto_add', ['1'], undefined],
    ['no fallback, a later gift sold out: the first is still given', [1, 2], false, 'auto_add', ['2'], [1]],
    ['customer choice offers what is in stock', [1, 2, 3], false, 'customer_choice', ['1', '3'], [2]],
    ['customer choice, all sold out: left out', [1], false, 'customer_choice', ['1'], undefined],
    ['another variant sold out: unchanged', [1], false, 'auto_add', ['9'], [1]],
  ] as const)('%s', (_name, gifts, fallback, actionType, soldOut, expected) => {
    expect(giftsOf(offeredRule(ruleOf([...gifts], fallback, actionType), new Set(soldOut)))).toEqual(expected === undefined ? undefined : [...expected]);
  });

  it('never offers a sold-out gift, never adds one, keeps the list order, and leaves the stored rule unchanged', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }),
        fc.subarray([...Array.from({ length: 20 }, (_, i) => String(i + 1))]),
        fc.boolean(),
        fc.constantFrom('auto_add' as const, 'customer_choice' as const),
        (gifts, soldOut, fallback, actionType) => {
          const rule = ruleOf(gifts, fallback, actionType);
          const offered = giftsOf(offeredRule(rule, new Set(soldOut)));
          expect(giftsOf(rule)).toEqual(gifts);
          if (offered === undefined) return;
          expect(offered.length).toBeGreaterThan(0);
          expect(offered.every((n) => !soldOut.includes(String(n)))).toBe(true);
          expect(offered).toEqual(gifts.filter((n) => offered.includes(n)));
        },
      ),
    );
  });
});
