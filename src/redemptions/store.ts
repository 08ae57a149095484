/** Per-(customer, rule) redemption counts, written by order intake, read by GET /redemptions. */
import { and, asc, desc, eq } from 'drizzle-orm';
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
