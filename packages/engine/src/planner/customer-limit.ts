/**
 * Per-customer limits (issue 13, `options.maxPerCustomer`): whether a rule whose conditions
 * matched may still give to this customer. Pure and shared by the planner (`evaluateRules`)
 * and the checkout function, so the storefront, `/evaluate`, the simulator and the checkout
 * agree.
 */

/**
 * A customer's redemption counts by rule id: how many orders of theirs carried a gift line of
 * the rule (the redemption records, CONTRACT). Trusted input: the server reads it from its
 * records, the storefront from the signed app proxy, the checkout from a customer metafield;
 * never from the shopper's context body.
 */
export type RedemptionCounts = Readonly<Record<string, number>>;

/** Why a limited rule gives or not. */
export const LIMIT_REASON = {
  below: 'max_per_customer_below',
  reached: 'max_per_customer_reached',
  unknownCustomer: 'max_per_customer_unknown_customer',
} as const;

/**
 * A matched rule with `maxPerCustomer`, for its result (like `repeat`): the limit, what the
 * customer has used (null when the customer is unknown) and why it gives or not.
 */
export type CustomerLimit = {
  maxPerCustomer: number;
  used: number | null;
  reason: (typeof LIMIT_REASON)[keyof typeof LIMIT_REASON];
};

/**
 * The limit of one rule for one customer. `counts` undefined means the customer is unknown
 * (no customer id, not logged in, or no trusted counts: a headless page, a malformed metafield):
 * the rule gives nothing (fail closed: a per-customer limit cannot be kept for an anonymous
 * cart). A rule absent from `counts` has been redeemed 0 times; a count that is not a
 * non-negative safe integer makes the customer unknown.
 *
 * @example customerLimit(2, { rul_1: 2 }, 'rul_1') // { maxPerCustomer: 2, used: 2, reason: 'max_per_customer_reached' }
 */
export function customerLimit(maxPerCustomer: number, counts: RedemptionCounts | undefined, ruleId: string): CustomerLimit {
  const used = counts === undefined ? undefined : Object.hasOwn(counts, ruleId) ? counts[ruleId] : 0;
  if (used === undefined || !Number.isSafeInteger(used) || used < 0) return { maxPerCustomer, used: null, reason: LIMIT_REASON.unknownCustomer };
  return { maxPerCustomer, used, reason: used >= maxPerCustomer ? LIMIT_REASON.reached : LIMIT_REASON.below };
}

/** Whether the customer of a context is known: logged in with an id (the checkout: a signed-in buyer). */
export function isKnownCustomer(customer: { id?: string | undefined; loggedIn: boolean } | null | undefined): boolean {
  return customer?.loggedIn === true && typeof customer.id === 'string' && customer.id.trim() !== '';
}
