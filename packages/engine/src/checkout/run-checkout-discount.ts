import type { CompiledRule, CompiledRules } from '../compile/compile-rules.ts';
import { compileRules } from '../compile/compile-rules.ts';
import type { RulesPayloadInput } from '../schema/rules-payload.ts';
import { GIFT_ATTRIBUTE } from '../planner/operations.ts';
import type {
  CheckoutCartLine,
  CheckoutDiscount,
  CheckoutDiscountValue,
  CheckoutError,
  CheckoutInput,
  CheckoutResult,
} from './checkout-types.ts';
import { toDecimalString, toMinorUnits } from './money.ts';

export const CHECKOUT_MESSAGES = {
  zeroValueCart: 'Your cart total must be greater than zero to check out.',
  giftOnlyCart: 'Free gifts cannot be checked out on their own.',
  minOrderTotal: 'Your order does not reach the minimum total for free gifts.',
} as const;

/**
 * The checkout side of SPEC as first written: discounts every line carrying
 * `_svc_campaign_id`, however it was added — it trusts the attribute, so the platform's
 * discount function uses `runGiftDiscount` (gift-discount.ts) instead, which re-checks every
 * claim. What stays useful here are the blocking errors, for a cart validation function
 * (`_svc_rule_id` names the rule; an unknown rule gets no discount). It applies
 * `shopSettings.checkout` as blocking errors:
 * - blockZeroValueCart: the total after these discounts is 0;
 * - blockGiftOnlyCarts: every line is a gift line;
 * - minOrderTotalCents: a cart with a gift line whose non-gift subtotal is below it
 *   (compared only when the cart is in the base currency), with minOrderTotalMessage;
 * - stripZeroPriceItems: lines priced 0 are left out: gift lines priced 0 get no discount
 *   target, and non-gift lines priced 0 do not count as merchandise for the two checks above.
 * Fixed-amount discounts are minor units of the base currency and are not converted: in
 * another currency they are not applied (fail closed, the gift is charged, nothing is given
 * away by accident).
 *
 * @example runCheckoutDiscount(input, compileRules(rulesPayload))
 */
export function runCheckoutDiscount(input: CheckoutInput, config: CompiledRules | RulesPayloadInput): CheckoutResult {
  const compiled = 'kind' in config && config.kind === 'compiled-rules' ? config : compileRules(config as RulesPayloadInput);
  const settings = compiled.shopSettings.checkout ?? {};
  const strip = settings.stripZeroPriceItems === true;
  const lines = input.cart.lines;
  const discounts = new Map<string, CheckoutDiscount>();
  let merchandiseLines = 0;
  let giftLines = 0;
  let nonGiftSubtotal = 0;
  let totalAfterDiscounts = 0;
  let currency = compiled.baseCurrency;

  for (const line of lines) {
    const unit = toMinorUnits(line.cost.amountPerQuantity.amount, line.cost.amountPerQuantity.currencyCode);
    const quantity = Number.isFinite(line.quantity) ? line.quantity : 0;
    const lineTotal = (Number.isFinite(unit) ? unit : 0) * quantity;
    currency = line.cost.amountPerQuantity.currencyCode;
    const campaignId = readAttribute(line, 'campaignId', GIFT_ATTRIBUTE.campaignId);
    if (campaignId === undefined) {
      nonGiftSubtotal += lineTotal;
      totalAfterDiscounts += lineTotal;
      if (!(strip && unit === 0)) merchandiseLines++;
      continue;
    }
    giftLines++;
    const rule = compiled.rulesById.get(readAttribute(line, 'ruleId', GIFT_ATTRIBUTE.ruleId) ?? '');
    const value = rule === undefined || (strip && unit === 0) ? undefined : discountValue(rule, compiled.baseCurrency, currency);
    totalAfterDiscounts += value === undefined ? lineTotal : costAfter(unit, quantity, value, currency);
    if (value === undefined || rule === undefined) continue;
    const existing = discounts.get(rule.id);
    if (existing === undefined) {
      discounts.set(rule.id, { targets: [{ cartLine: { id: line.id } }], value, message: rule.options?.discountTitle ?? '' });
    } else {
      existing.targets.push({ cartLine: { id: line.id } });
    }
  }

  const errors: CheckoutError[] = [];
  const block = (code: CheckoutError['code'], localizedMessage: string) => errors.push({ code, localizedMessage, target: '$.cart' });
  if (lines.length > 0) {
    if (settings.blockZeroValueCart === true && totalAfterDiscounts <= 0) block('zero_value_cart', CHECKOUT_MESSAGES.zeroValueCart);
    if (settings.blockGiftOnlyCarts === true && giftLines > 0 && merchandiseLines === 0) block('gift_only_cart', CHECKOUT_MESSAGES.giftOnlyCart);
    const minimum = settings.minOrderTotalCents;
    if (
      minimum !== undefined &&
      giftLines > 0 &&
      currency.toUpperCase() === compiled.baseCurrency.toUpperCase() &&
      nonGiftSubtotal < minimum
    ) {
      block('min_order_total', settings.minOrderTotalMessage ?? CHECKOUT_MESSAGES.minOrderTotal);
    }
  }
  return { discounts: [...discounts.values()], discountApplicationStrategy: 'ALL', errors, blocked: errors.length > 0 };
}

function readAttribute(line: CheckoutCartLine, alias: 'campaignId' | 'ruleId', key: string): string | undefined {
  const aliased = line[alias]?.value;
  if (typeof aliased === 'string') return aliased;
  if (line.attribute?.key === key && typeof line.attribute.value === 'string') return line.attribute.value;
  const listed = line.attributes?.find((attribute) => attribute.key === key)?.value;
  return typeof listed === 'string' ? listed : undefined;
}

function discountValue(rule: CompiledRule, baseCurrency: string, currency: string): CheckoutDiscountValue | undefined {
  const options = rule.options;
  if (options === undefined || !(options.discountValue > 0)) return undefined;
  if (options.discountType === 'percentage') {
    return { percentage: { value: String(Math.min(options.discountValue, 100)) } };
  }
  if (currency.toUpperCase() !== baseCurrency.toUpperCase()) return undefined;
  return { fixedAmount: { amount: toDecimalString(options.discountValue, currency), appliesToEachItem: true } };
}

function costAfter(unit: number, quantity: number, value: CheckoutDiscountValue, currency: string): number {
  if ('percentage' in value) return Math.round(unit * quantity * (1 - Number(value.percentage.value) / 100));
  const off = toMinorUnits(value.fixedAmount.amount, currency);
  return Math.max(0, unit - off) * quantity;
}
