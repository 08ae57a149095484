/**
 * Per-customer limits at checkout (docs/promotions.md "Per-customer limits"): the checkout
 * function reads a customer's redemption counts from their `$app:gifts` / `redemptions`
 * metafield. Order intake queues a `redemptions_sync` job when the order's customer redeemed a
 * rule that has `maxPerCustomer`; the job (outbox/redemptions-sync-job.ts) recomputes the value
 * from the redemption records, so a retry or two jobs out of order write the same thing.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { rules } from '../db/schema.ts';
import { bytewise } from '../db/collation.ts';
import { enqueueJob } from '../outbox/enqueue.ts';
import { redemptionCounts } from './store.ts';

const hasLimit = (options: Record<string, unknown>) => options.maxPerCustomer !== undefined;

/**
 * Queues the metafield write of `customerId` in the caller's transaction (order intake) when
 * one of `ruleIds`, the rules the order redeemed, has `maxPerCustomer`; otherwise nothing.
 *
 * @example
 *   await enqueueRedemptionsSync(tx, shop.id, '42', ['rul_1']);
 */
export async function enqueueRedemptionsSync(tx: Queryable, shopId: string, customerId: string, ruleIds: readonly string[]): Promise<void> {
  if (ruleIds.length === 0) return;
  const rows = await tx
    .select({ options: rules.options })
    .from(rules)
    .where(and(eq(rules.shopId, shopId), inArray(rules.id, [...ruleIds])));
  if (rows.some((row) => hasLimit(row.options))) await enqueueJob(tx, shopId, 'redemptions_sync', { customerId });
}

/**
 * The metafield's value for a customer: compact JSON `{ "<ruleId>": count }` of the shop's
 * rules that have `maxPerCustomer` (keys sorted, so the same records give the same bytes).
 * Rules without a limit are left out: the function only looks up limited rules.
 *
 * @example
 *   await customerRedemptionsValue(db, shop.id, '42'); // '{"rul_1":2}'
 */
export async function customerRedemptionsValue(db: Queryable, shopId: string, customerId: string): Promise<string> {
  const rows = await db
    .select({ id: rules.id, options: rules.options })
    .from(rules)
    .where(eq(rules.shopId, shopId))
    .orderBy(asc(bytewise(rules.id)));
  const limited = rows.filter((row) => hasLimit(row.options)).map((row) => row.id);
  const counts = await redemptionCounts(db, shopId, customerId, limited);
  return JSON.stringify(Object.fromEntries(limited.flatMap((id) => (counts[id] === undefined ? [] : [[id, counts[id]]]))));
}
