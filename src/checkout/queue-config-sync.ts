/**
 * A discount sync for the shop now, when it has a live campaign (the job names one; it writes
 * the whole shop's configuration anyway). Used when the shop's platform connection is set, so
 * its discount gets the configuration without waiting for a campaign change.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { campaigns } from '../db/schema.ts';
import { writeOutbox } from '../outbox/enqueue.ts';

/**
 * Queues one discount_sync; false when the shop has no live campaign (nothing to write).
 *
 * @example await queueConfigSync(ctx.db, shop.id, ctx.now());
 */
export async function queueConfigSync(db: Queryable, shopId: string, now: Date): Promise<boolean> {
  const [live] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.shopId, shopId), eq(campaigns.enabled, true), eq(campaigns.isDraft, false)))
    .orderBy(asc(campaigns.createdAt))
    .limit(1);
  if (!live) return false;
  await writeOutbox(db, shopId, [{ kind: 'discount_sync', payload: { campaignId: live.id, active: true } }], now);
  return true;
}
