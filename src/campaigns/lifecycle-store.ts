/** Storage of the lifecycle routes: the campaign's state columns and schedule window. */
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { campaigns, shops } from '../db/schema.ts';
import type { CampaignRow } from './store.ts';

/**
 * Takes the shop row's lock for the rest of the transaction, as bumpRulesVersion does, but
 * without bumping: a no-op enable or disable must not change the rules ETag, yet it must
 * read the campaign's state only after any concurrent writer of the shop has committed.
 */
export async function lockShop(tx: Queryable, shopId: string): Promise<void> {
  await tx.select({ id: shops.id }).from(shops).where(eq(shops.id, shopId)).for('update');
}

export async function getCampaignRow(db: Queryable, shopId: string, campaignId: string): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.shopId, shopId), eq(campaigns.id, campaignId)));
  return row;
}

/**
 * Writes the campaign's state and/or schedule; returns the updated row.
 *
 * @example
 *   await updateCampaignFields(tx, shop.id, id, { enabled: true, isDraft: false });
 */
export async function updateCampaignFields(
  tx: Queryable,
  shopId: string,
  campaignId: string,
  changes: Partial<Pick<CampaignRow, 'enabled' | 'isDraft' | 'startAt' | 'endAt'>>,
): Promise<CampaignRow | undefined> {
  const [row] = await tx
    .update(campaigns)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(campaigns.shopId, shopId), eq(campaigns.id, campaignId)))
    .returning();
  return row;
}
