import type { CompiledRule, CompiledRules } from '../compile/compile-rules.ts';
import { compileRules } from '../compile/compile-rules.ts';
import type { EvaluationContext } from '../schema/evaluation-context.ts';
import type { Gift } from '../schema/gift-config.ts';
import type { RulesPayloadInput } from '../schema/rules-payload.ts';
import type { RuleOptions } from '../schema/rule-options.ts';
import { isGiftLine } from '../evaluate/prepare-context.ts';
import type { RuleEvaluationOptions, RuleResult } from './evaluate-rules.ts';
import { evaluateRules } from './evaluate-rules.ts';
import type { CartOperation, ChooseOperation, RemoveOperation, AddOperation } from './operations.ts';
import { GIFT_ATTRIBUTE, giftLineAttributes, lineIdOf } from './operations.ts';

export type PlanOptions = RuleEvaluationOptions & {
  /** Whether a gift variant can be added (stock); default: every variant is available. */
  availability?: ((variantGid: string) => boolean) | undefined;
};

export type CartPlan = { results: RuleResult[]; operations: CartOperation[] };

/**
 * Evaluates the rules against a cart and lists the operations that bring the cart to the
 * state the rules call for (CONTRACT "Evaluation"), in the order removes, adds, chooses:
 * - `remove` every gift line (one carrying `_svc_rule_id`) whose rule did not match or is
 *   gone from the payload; gift lines without `_svc_rule_id` are left alone.
 * - `add` the gift of each matched auto-add rule that has no gift line in the cart yet.
 *   A rule gives one gift: `gifts[0]`; when it is unavailable, the first available later
 *   gift if `fallbackOnOOS`, else nothing.
 * - `choose` for each matched customer-choice rule with no gift line yet, offering its
 *   available gifts (none available: no operation).
 * Applying the operations and planning again yields no operations.
 *
 * @example
 * const { results, operations } = planCart(compileRules(payload), ctx, { visitorId });
 */
export function planCart(
  rules: CompiledRules | RulesPayloadInput,
  ctx: EvaluationContext,
  options: PlanOptions = {},
): CartPlan {
  const compiled = 'kind' in rules && rules.kind === 'compiled-rules' ? rules : compileRules(rules as RulesPayloadInput);
  const results = evaluateRules(compiled, ctx, options);
  const available = options.availability ?? (() => true);
  const matched = new Set<string>();
  for (const result of results) if (result.matched) matched.add(result.ruleId);

  const removes: RemoveOperation[] = [];
  const rulesWithGiftLine = new Set<string>();
  ctx.cart.lines.forEach((line, index) => {
    if (!isGiftLine(line)) return;
    const attributes = line.attributes ?? {};
    const ruleId = Object.hasOwn(attributes, GIFT_ATTRIBUTE.ruleId) ? attributes[GIFT_ATTRIBUTE.ruleId] : undefined;
    if (ruleId === undefined) return;
    if (matched.has(ruleId)) rulesWithGiftLine.add(ruleId);
    else removes.push({ type: 'remove', lineId: lineIdOf(line, index), ruleId });
  });

  const adds: AddOperation[] = [];
  const chooses: ChooseOperation[] = [];
  for (const rule of compiled.rules) {
    if (!matched.has(rule.id) || rulesWithGiftLine.has(rule.id) || rule.options === undefined) continue;
    if (rule.options.actionType === 'customer_choice') {
      const offered = rule.gifts.filter((gift) => available(gift.variantId));
      if (offered.length > 0) chooses.push(chooseOperation(rule, offered, rule.options));
      continue;
    }
    const gift = pickGift(rule, available);
    if (gift !== undefined) {
      adds.push({
        type: 'add',
        variantId: gift.variantId,
        quantity: gift.quantity,
        attributes: giftLineAttributes(rule, rule.options, { auto: true }),
      });
    }
  }
  return { results, operations: [...removes, ...adds, ...chooses] };
}

function pickGift(rule: CompiledRule, available: (variantGid: string) => boolean): Gift | undefined {
  const [first, ...fallbacks] = rule.gifts;
  if (first === undefined) return undefined;
  if (available(first.variantId)) return first;
  return rule.fallbackOnOOS ? fallbacks.find((gift) => available(gift.variantId)) : undefined;
}

function chooseOperation(rule: CompiledRule, gifts: readonly Gift[], options: RuleOptions): ChooseOperation {
  return {
    type: 'choose',
    ruleId: rule.id,
    campaignId: rule.campaignId,
    options: gifts.map((gift) => ({ variantId: gift.variantId, quantity: gift.quantity })),
    attributes: giftLineAttributes(rule, options, { auto: false }),
  };
}
