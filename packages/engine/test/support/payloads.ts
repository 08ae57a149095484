import type { ConditionNode, RulesPayloadInput } from '../../src/index.ts';
import type { GiftFunctionLine } from '../../src/checkout-function.ts';
import { gid } from './trees.ts';

type PayloadRule = RulesPayloadInput['rules'][number];

/** A payload rule with one gift and default options. */
export function rule(id: string, conditionTree: ConditionNode, overrides: Partial<PayloadRule> = {}): PayloadRule {
  return {
    id,
    campaignId: `cmp_${id}`,
    conditionTree,
    giftConfig: { type: 'fixed', gifts: [{ variantId: gid.variant(9001), quantity: 1 }] },
    options: {},
    ...overrides,
  };
}

/** A USD payload of the given rules. */
export function payload(rules: PayloadRule[], overrides: Partial<RulesPayloadInput> = {}): RulesPayloadInput {
  return { rules, baseCurrency: 'USD', ...overrides };
}

/**
 * The checkout function's cart lines for a shopper who claims every rule's gift, honest or not:
 * one $10 product line (`l1`) and, per rule, a $20 line of its gift variant (9000 + index)
 * carrying the rule's attributes.
 */
export function claimEveryGift(rules: RulesPayloadInput['rules']): GiftFunctionLine[] {
  return [
    { id: 'gid://shopify/CartLine/l1', quantity: 1, cost: { amountPerQuantity: { amount: '10.00', currencyCode: 'USD' } }, merchandise: { id: gid.variant(11), product: { id: gid.product(1) } } },
    ...rules.map((r, i): GiftFunctionLine => ({
      id: `gid://shopify/CartLine/g${i}`,
      quantity: 1,
      cost: { amountPerQuantity: { amount: '20.00', currencyCode: 'USD' } },
      merchandise: { id: gid.variant(9000 + i), product: { id: gid.product(900) } },
      campaignId: { value: r.campaignId ?? '' },
      ruleId: { value: r.id },
    })),
  ];
}
