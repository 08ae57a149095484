import type { CartLine, EvaluationContext } from '../../src/index.ts';
import { gid } from './trees.ts';

/** A cart line with sensible defaults: product 1 / variant 11, 1 × 1000. */
export function line(overrides: Partial<CartLine> = {}): CartLine {
  return { productId: gid.product(1), variantId: gid.variant(11), quantity: 1, price: 1000, ...overrides };
}

/** A gift line added by rule `ruleId` of campaign `campaignId`. */
export function giftLine(overrides: Partial<CartLine> = {}, ruleId = 'rul_1', campaignId = 'cmp_1'): CartLine {
  return line({
    productId: gid.product(900),
    variantId: gid.variant(9001),
    price: 5000,
    quantity: 3,
    ...overrides,
    attributes: { _svc_campaign_id: campaignId, _svc_rule_id: ruleId, _svc_auto: 'true', ...overrides.attributes },
  });
}

/** A USD cart of the given lines and no customer, market or codes. */
export function context(lines: CartLine[], overrides: Partial<EvaluationContext> = {}): EvaluationContext {
  return { cart: { currency: 'USD', lines }, ...overrides };
}

export const USD = { baseCurrency: 'USD' } as const;
