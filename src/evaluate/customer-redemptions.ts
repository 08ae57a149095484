/**
 * The trusted redemption counts an evaluation passes to the engine for per-customer limits
 * (`options.maxPerCustomer`, docs/promotions.md): read from the redemption records of the
 * context's customer, never from the body's own claims. No query at all unless a rule being
 * evaluated has a limit and the customer is known (logged in, with an id).
 */
import { isKnownCustomer } from '@gcrs/engine';
import type { CompiledRules, EvaluationContext, RedemptionCounts } from '@gcrs/engine';
import type { Queryable } from '../db/database.ts';
import { customerKeyOf, redemptionCounts } from '../redemptions/store.ts';

// The live payload's compilation is shared by every request while it is exact: scan it once.
const limitedOf = new WeakMap<CompiledRules, string[]>();

/** The ids of the rules with `maxPerCustomer`. */
export function limitedRuleIds(rules: CompiledRules): string[] {
  let ids = limitedOf.get(rules);
  if (ids === undefined) {
    ids = rules.rules.filter((rule) => rule.options?.maxPerCustomer !== undefined).map((rule) => rule.id);
    limitedOf.set(rules, ids);
  }
  return ids;
}

/**
 * The counts of the context's customer for the limited rules, or undefined when there is
 * nothing to count (no limited rule) or no one to count for (an unknown customer, or an id
 * that is not a platform customer id, which no order can carry: the engine then fails closed).
 *
 * @example
 *   const redemptions = await customerRedemptions(ctx.db, shop.id, rules, body); // { rul_1: 2 } | undefined
 */
export async function customerRedemptions(
  db: Queryable,
  shopId: string,
  rules: CompiledRules,
  context: EvaluationContext,
): Promise<RedemptionCounts | undefined> {
  const limited = limitedRuleIds(rules);
  if (limited.length === 0 || !isKnownCustomer(context.customer)) return undefined;
  const customerId = customerKeyOf(context.customer?.id);
  if (customerId === undefined) return undefined;
  return redemptionCounts(db, shopId, customerId, limited);
}
