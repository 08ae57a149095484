/**
 * Per-customer limits at checkout (docs/promotions.md "Per-customer limits"): the checkout
 * function reads a customer's redemption counts from their `$app:gifts` / `redemptions`
 * metafield. Order intake queues a `redemptions_sync` job when the order's customer redeemed a
 * rule that has `maxPerCustomer`; the job (outbox/redemptions-sync-job.ts) recomputes the value
 * from the redemption records, so a retry or two jobs out of order write the same thing. A PUT
 * that gives an already-redeemed rule a limit queues the job for each customer who redeemed it.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { redemptions, rules } from '../db/schema.ts';
import { bytewise } from '../db/collation.ts';
import type { OutboxEvent } from '../outbox/enqueue.ts';
import { redemptionCounts } from './store.ts';

const hasLimit = (options: Record<string, unknown>) => options.maxPerCustomer !== undefined;

/**
 * The metafield write of `customerId` to queue in the caller's transaction (order intake, a
 * give-back, a repair) when one of `ruleIds`, the rules the order redeemed, has
 * `maxPerCustomer`; otherwise no event. `limits`: those rules' limits (rule id →
 * maxPerCustomer), for intake's over-limit report.
 *
 * @example
 *   const { limits, events } = await redemptionsSync(uow.tx, shop.id, '42', ['rul_1']); // Map { 'rul_1' => 1 }
 *   uow.enqueue(...events);
 */
export async function redemptionsSync(
  tx: Queryable,
  shopId: string,
  customerId: string,
  ruleIds: readonly string[],
): Promise<{ limits: Map<string, number>; events: OutboxEvent[] }> {
  const limits = new Map<string, number>();
  if (ruleIds.length === 0) return { limits, events: [] };
  const rows = await tx
    .select({ id: rules.id, options: rules.options })
    .from(rules)
    .where(and(eq(rules.shopId, shopId), inArray(rules.id, [...ruleIds])));
  for (const row of rows) {
    if (hasLimit(row.options) && typeof row.options.maxPerCustomer === 'number') limits.set(row.id, row.options.maxPerCustomer);
  }
  return { limits, events: limits.size > 0 ? [{ kind: 'redemptions_sync', payload: { customerId } }] : [] };
}

/**
 * The rules of a replaced campaign that gained a limit: kept rules (same id) with
 * `maxPerCustomer` now and none before. A changed value needs nothing (the limit is in the
 * checkout configuration, the metafield only holds counts).
 *
 * @example newlyLimitedRules(before.rules, body.rules) // ['rul_1']
 */
export function newlyLimitedRules(
  before: ReadonlyArray<{ id: string; options: { maxPerCustomer?: number | undefined } }>,
  after: ReadonlyArray<{ id?: string | undefined; options: { maxPerCustomer?: number | undefined } }>,
): string[] {
  const unlimitedBefore = new Set(before.filter((rule) => rule.options.maxPerCustomer === undefined).map((rule) => rule.id));
  return after.flatMap((rule) => (rule.id !== undefined && rule.options.maxPerCustomer !== undefined && unlimitedBefore.has(rule.id) ? [rule.id] : []));
}

/**
 * When a rule that customers have already redeemed gains a limit, their metafields lack it:
 * one `redemptions_sync` per customer with a redemption record of `ruleIds`, to queue in the
 * caller's unit of work (the campaign's PUT); none when no one redeemed them.
 *
 * @example
 *   uow.enqueue(...(await limitBackfillEvents(uow.tx, shop.id, newlyLimitedRules(before.rules, rules))));
 */
export async function limitBackfillEvents(tx: Queryable, shopId: string, ruleIds: readonly string[]): Promise<OutboxEvent[]> {
  if (ruleIds.length === 0) return [];
  const customers = await tx
    .selectDistinct({ customerId: redemptions.customerId })
    .from(redemptions)
    .where(and(eq(redemptions.shopId, shopId), inArray(redemptions.ruleId, [...ruleIds])))
    .orderBy(asc(redemptions.customerId));
  return customers.map(({ customerId }) => ({ kind: 'redemptions_sync', payload: { customerId } }));
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
