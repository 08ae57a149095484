import type { ConditionNode, RulesPayloadInput } from '../../src/index.ts';
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
