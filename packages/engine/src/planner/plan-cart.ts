import type { CompiledRule, CompiledRules } from '../compile/compile-rules.ts';
import { compileRules } from '../compile/compile-rules.ts';
import type { CartLine, EvaluationContext } from '../schema/evaluation-context.ts';
import type { Gift } from '../schema/gift-config.ts';
import type { RulesPayloadInput } from '../schema/rules-payload.ts';
import type { RuleOptions } from '../schema/rule-options.ts';
import { isGiftLine } from '../evaluate/prepare-context.ts';
import { idKeyOf } from '../ids.ts';
import type { RuleEvaluationOptions, RuleResult } from './evaluate-rules.ts';
import { evaluateRules } from './evaluate-rules.ts';
import type { CartOperation, ChooseOperation, RemoveOperation, AddOperation, UpdateOperation } from './operations.ts';
import { GIFT_ATTRIBUTE, giftLineAttributes, lineIdOf, locksQuantity } from './operations.ts';

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
 * A repeatable gift (`giftConfig.per`, see {@link giftSets}) gives `gift.quantity × sets`
 * (adds and choose options carry `sets`); 0 sets gives nothing (its lines are removed), and a
 * line of it holding another quantity is removed and added again with the right one.
 * A rule's gift lines after its first are duplicated claims: removed. A rule that locks the
 * quantity ({@link locksQuantity}) gets an `update` back to its gift's quantity for a line
 * holding another (issue 23). Order: removes, updates, adds, chooses.
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
  const compiled = (rules as CompiledRules).kind === 'compiled-rules' ? (rules as CompiledRules) : compileRules(rules as RulesPayloadInput);
  const results = evaluateRules(compiled, ctx, options);
  const available = options.availability ?? (() => true);
  // A rule gives when it matched and, if repeatable, earned at least one set.
  const sets = new Map<string, number>();
  for (const result of results) if (result.matched && (result.repeat?.sets ?? 1) > 0) sets.set(result.ruleId, result.repeat?.sets ?? 1);

  const removes: RemoveOperation[] = [];
  const updates: UpdateOperation[] = [];
  const adds: AddOperation[] = [];
  const rulesWithGiftLine = new Set<string>();
  ctx.cart.lines.forEach((line, index) => {
    if (!isGiftLine(line)) return;
    const attributes = line.attributes ?? {};
    const ruleId = Object.hasOwn(attributes, GIFT_ATTRIBUTE.ruleId) ? attributes[GIFT_ATTRIBUTE.ruleId] : undefined;
    if (ruleId === undefined) return;
    const given = sets.get(ruleId);
    const lineId = lineIdOf(line, index);
    // Not given (any more), or a second line of the rule: one rule, one gift line.
    if (given === undefined || rulesWithGiftLine.has(ruleId)) {
      removes.push({ type: 'remove', lineId, ruleId });
      return;
    }
    rulesWithGiftLine.add(ruleId);
    const resized = resizeGift(compiled.rulesById.get(ruleId), line, given, available);
    if (typeof resized === 'number') {
      updates.push({ type: 'update', lineId, ruleId, quantity: resized });
    } else if (resized !== undefined) {
      removes.push({ type: 'remove', lineId, ruleId });
      adds.push(resized);
    }
  });

  const chooses: ChooseOperation[] = [];
  for (const rule of compiled.rules) {
    const given = sets.get(rule.id);
    if (given === undefined || rulesWithGiftLine.has(rule.id) || rule.options === undefined) continue;
    if (rule.options.actionType === 'customer_choice') {
      const offered = rule.gifts.filter((gift) => available(gift.variantId));
      if (offered.length > 0) chooses.push(chooseOperation(rule, offered, rule.options, given));
      continue;
    }
    const gift = pickGift(rule, available);
    if (gift !== undefined) {
      adds.push({
        type: 'add',
        variantId: gift.variantId,
        quantity: gift.quantity * given,
        attributes: giftLineAttributes(rule, rule.options, { auto: true }),
        ...(rule.per === undefined ? {} : { sets: given }),
      });
    }
  }
  return { results, operations: [...removes, ...updates, ...adds, ...chooses] };
}

function pickGift(rule: CompiledRule, available: (variantGid: string) => boolean): Gift | undefined {
  const [first, ...fallbacks] = rule.gifts;
  if (first === undefined) return undefined;
  if (available(first.variantId)) return first;
  return rule.fallbackOnOOS ? fallbacks.find((gift) => available(gift.variantId)) : undefined;
}

function chooseOperation(rule: CompiledRule, gifts: readonly Gift[], options: RuleOptions, sets: number): ChooseOperation {
  return {
    type: 'choose',
    ruleId: rule.id,
    campaignId: rule.campaignId,
    options: gifts.map((gift) => ({ variantId: gift.variantId, quantity: gift.quantity * sets })),
    attributes: giftLineAttributes(rule, options, { auto: false }),
    ...(rule.per === undefined ? {} : { sets }),
  };
}

/**
 * A gift line whose quantity is not the one its rule gives (the gift quantity × sets): for a
 * repeatable gift, the add that replaces it (the line itself is removed), same variant and
 * auto flag; for a rule that locks the quantity, the quantity to put it back to. Lines of
 * other rules, and lines of a variant the rule does not give, are left as they are.
 */
function resizeGift(
  rule: CompiledRule | undefined,
  line: CartLine,
  sets: number,
  available: (variantGid: string) => boolean,
): AddOperation | number | undefined {
  if (rule?.options === undefined || (rule.per === undefined && !locksQuantity(rule.options))) return undefined;
  const variant = idKeyOf(line.variantId);
  const gift = rule.gifts.find((candidate) => idKeyOf(candidate.variantId) === variant);
  if (gift === undefined || line.quantity === gift.quantity * sets) return undefined;
  if (rule.per === undefined) return gift.quantity;
  // An unavailable variant keeps its line: removing it for an add that fails would lose the gift.
  if (!available(gift.variantId)) return undefined;
  const auto = line.attributes?.[GIFT_ATTRIBUTE.auto] === 'true';
  return { type: 'add', variantId: gift.variantId, quantity: gift.quantity * sets, attributes: giftLineAttributes(rule, rule.options, { auto }), sets };
}
