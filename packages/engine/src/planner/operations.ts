import type { CompiledRule } from '../compile/compile-rules.ts';
import type { RuleOptions } from '../schema/rule-options.ts';

/** Add an auto-add gift that is not in the cart yet (attributes per SPEC's table). */
export type AddOperation = {
  type: 'add';
  variantId: string;
  quantity: number;
  attributes: Record<string, string>;
  /** A repeatable gift only: the gift sets this quantity holds (quantity = gift quantity × sets). */
  sets?: number;
};

/**
 * Remove a gift line whose rule no longer matches or is no longer in the payload, or a second
 * gift line of one rule (a duplicated claim: the rule's first line stays).
 */
export type RemoveOperation = { type: 'remove'; lineId: string; ruleId: string };

/**
 * Put a gift line of a rule that locks its quantity ({@link locksQuantity}) back to the
 * gift's quantity, after the shopper changed it.
 */
export type UpdateOperation = { type: 'update'; lineId: string; ruleId: string; quantity: number };

/** Let the customer choose one gift of a matched customer-choice rule. */
export type ChooseOperation = {
  type: 'choose';
  ruleId: string;
  campaignId: string;
  options: Array<{ variantId: string; quantity: number }>;
  /** Attributes to put on the chosen gift's line (as an add's, without `_svc_auto`). */
  attributes: Record<string, string>;
  /** A repeatable gift only: the gift sets each option's quantity holds. */
  sets?: number;
};

export type CartOperation = AddOperation | RemoveOperation | UpdateOperation | ChooseOperation;

/** SPEC's gift line attribute names. */
export const GIFT_ATTRIBUTE = {
  campaignId: '_svc_campaign_id',
  ruleId: '_svc_rule_id',
  auto: '_svc_auto',
  title: '_svc_title',
  lockQuantity: '_svc_lock_quantity',
  discountMethod: '_svc_discount_method',
} as const;

/**
 * Whether a rule locks its gift lines' quantity: `options.lockQuantity`, else true for an
 * auto-added gift and false for a chosen one (issue 23).
 *
 * @example locksQuantity({ actionType: 'auto_add' }) // true
 */
export function locksQuantity(options: Partial<Pick<RuleOptions, 'actionType' | 'lockQuantity'>>): boolean {
  return options.lockQuantity ?? options.actionType !== 'customer_choice';
}

/**
 * The attributes of a gift line added for a rule: campaign and rule ids (required by the
 * checkout discount), the discount method and title, `_svc_auto` for auto-adds and
 * `_svc_lock_quantity` when the rule locks the quantity.
 *
 * @example giftLineAttributes(rule, options, { auto: true })
 * // { _svc_campaign_id: 'cmp_1', _svc_rule_id: 'rul_1', _svc_auto: 'true', ... }
 */
export function giftLineAttributes(
  rule: Pick<CompiledRule, 'id' | 'campaignId'>,
  options: Pick<RuleOptions, 'discountMethod' | 'discountTitle'> & Partial<Pick<RuleOptions, 'actionType' | 'lockQuantity'>>,
  { auto }: { auto: boolean },
): Record<string, string> {
  const attributes: Record<string, string> = {
    [GIFT_ATTRIBUTE.campaignId]: rule.campaignId,
    [GIFT_ATTRIBUTE.ruleId]: rule.id,
  };
  if (auto) attributes[GIFT_ATTRIBUTE.auto] = 'true';
  attributes[GIFT_ATTRIBUTE.discountMethod] = options.discountMethod;
  attributes[GIFT_ATTRIBUTE.title] = options.discountTitle;
  if (locksQuantity(options)) attributes[GIFT_ATTRIBUTE.lockQuantity] = 'true';
  return attributes;
}

/**
 * How operations name a line: its `id`, or `#<index in cart.lines>` for a line without one.
 *
 * @example lineIdOf({ id: 'gid://shopify/CartLine/1' }, 0) // 'gid://shopify/CartLine/1'
 */
export function lineIdOf(line: { id?: string | undefined }, index: number): string {
  return line.id ?? `#${index}`;
}
