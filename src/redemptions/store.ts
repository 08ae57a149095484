/** Per-(customer, rule) redemption counts, written by order intake, read by GET /redemptions. */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { redemptions } from '../db/schema.ts';
import { bytewise } from '../db/collation.ts';

export type RedemptionRecord = { ruleId: string; campaignId: string; count: number; lastRedeemedAt: Date };

/**
 * A customer's redemptions in this shop, most recent first.
 *
 * @example
 *   const list = await listRedemptions(ctx.db, shop.id, '1234'); // [{ ruleId, campaignId, count, lastRedeemedAt }]
 */
export async function listRedemptions(db: Queryable, shopId: string, customerId: string): Promise<RedemptionRecord[]> {
  return db
    .select({
      ruleId: redemptions.ruleId,
      campaignId: redemptions.campaignId,
      count: redemptions.count,
      lastRedeemedAt: redemptions.lastRedeemedAt,
    })
    .from(redemptions)
    .where(and(eq(redemptions.shopId, shopId), eq(redemptions.customerId, customerId)))
    .orderBy(desc(redemptions.lastRedeemedAt), asc(bytewise(redemptions.ruleId)));
}

/**
 * The platform customer id a context names, as the redemption records key it (digits): a
 * numeric id or a Customer gid; undefined for anything else (no record can be its).
 *
 * @example customerKeyOf('gid://shopify/Customer/42') // '42'
 */
export function customerKeyOf(id: string | undefined): string | undefined {
  const match = id === undefined ? null : /^(?:gid:\/\/[A-Za-z0-9._-]+\/Customer\/)?(\d{1,32})$/.exec(id.trim());
  return match?.[1];
}

/**
 * A customer's redemption counts by rule id (the engine's `redemptions` option), limited to
 * `ruleIds` when given: one indexed read of the (shop, customer) primary-key prefix.
 *
 * @example
 *   await redemptionCounts(ctx.db, shop.id, '42'); // { rul_1: 2 }
 */
export async function redemptionCounts(db: Queryable, shopId: string, customerId: string, ruleIds?: readonly string[]): Promise<Record<string, number>> {
  if (ruleIds !== undefined && ruleIds.length === 0) return {};
  const rows = await db
    .select({ ruleId: redemptions.ruleId, count: redemptions.count })
    .from(redemptions)
    .where(and(eq(redemptions.shopId, shopId), eq(redemptions.customerId, customerId), ruleIds === undefined ? undefined : inArray(redemptions.ruleId, [...ruleIds])));
  return Object.fromEntries(rows.map((row) => [row.ruleId, row.count]));
}
