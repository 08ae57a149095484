/** Storage of the lifecycle routes: the campaign's state columns and schedule window. */
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { campaigns } from '../db/schema.ts';
import type { CampaignRow } from './store.ts';

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
