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

/** Remove a gift line whose rule no longer matches or is no longer in the payload. */
export type RemoveOperation = { type: 'remove'; lineId: string; ruleId: string };

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

export type CartOperation = AddOperation | RemoveOperation | ChooseOperation;

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
 * The attributes of a gift line added for a rule: campaign and rule ids (required by the
 * checkout discount), the discount method and title, and `_svc_auto` for auto-adds.
 *
 * @example giftLineAttributes(rule, options, { auto: true })
 * // { _svc_campaign_id: 'cmp_1', _svc_rule_id: 'rul_1', _svc_auto: 'true', ... }
 */
export function giftLineAttributes(
  rule: Pick<CompiledRule, 'id' | 'campaignId'>,
  options: Pick<RuleOptions, 'discountMethod' | 'discountTitle'>,
  { auto }: { auto: boolean },
): Record<string, string> {
  const attributes: Record<string, string> = {
    [GIFT_ATTRIBUTE.campaignId]: rule.campaignId,
    [GIFT_ATTRIBUTE.ruleId]: rule.id,
  };
  if (auto) attributes[GIFT_ATTRIBUTE.auto] = 'true';
  attributes[GIFT_ATTRIBUTE.discountMethod] = options.discountMethod;
  attributes[GIFT_ATTRIBUTE.title] = options.discountTitle;
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
