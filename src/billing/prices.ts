/**
 * What each paid plan costs (CONTRACT part three "Plans through the platform's billing"): the
 * operator's PLATFORM_BILLING_PLANS, parsed at start. A plan left out is not for sale through
 * the platform's billing (the route answers 409); Free never is.
 *
 * @example
 *   PLATFORM_BILLING_PLANS='{"growth":{"amount":"19.00","currencyCode":"USD","interval":"EVERY_30_DAYS","trialDays":7}}'
 */
import { PLANS, PLAN_IDS } from '@gcrs/engine';
import type { PaidPlan, Plan } from '@gcrs/engine';
import { z } from 'zod';

/** The platform's AppPricingInterval (Admin API 2025-10). */
export const PRICING_INTERVALS = ['EVERY_30_DAYS', 'ANNUAL'] as const;

export const planPriceSchema = z.strictObject({
  /** A Decimal as the platform's MoneyInput takes it: digits, at most two decimals, above zero. */
  amount: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount such as "19.00"'))
    .refine((amount) => Number(amount) > 0, 'must be above zero'),
  currencyCode: z.string().regex(/^[A-Z]{3}$/, 'must be a currency code such as USD'),
  interval: z.enum(PRICING_INTERVALS).default('EVERY_30_DAYS'),
  /** Days before the first charge (the platform's `trialDays`); 0 or absent: none. */
  trialDays: z.int().min(0).max(1000).optional(),
});

export type PlanPrice = z.infer<typeof planPriceSchema>;
export type { PaidPlan };
export type PlanPrices = Partial<Record<PaidPlan, PlanPrice>>;

/** Whether the platform bills the plan: its record's `paid` in the engine's plan registry. */
export const isPaidPlan = (plan: Plan): plan is PaidPlan => PLANS[plan].paid;

/** The paid plans, cheapest first. */
export const PAID_PLANS = PLAN_IDS.filter(isPaidPlan) as [PaidPlan, ...PaidPlan[]];

/** PLATFORM_BILLING_PLANS's JSON: a price per paid plan; any other key (`free` too) is refused. */
export const planPricesSchema = z.partialRecord(z.enum(PAID_PLANS), planPriceSchema);
