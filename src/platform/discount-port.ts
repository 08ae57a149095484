/**
 * The platform port for a campaign's automatic discount (SPEC "States": "automatic discount
 * synced"). The outbox dispatcher calls it for every discount_sync job; a real platform
 * adapter would create, activate or deactivate the discount through the platform's API.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { discountSyncs } from '../db/schema.ts';

export type DiscountPort = {
  /**
   * Makes the campaign's automatic discount active or inactive on the platform. Must be
   * idempotent (a job may run more than once); throw to have the job retried.
   */
  syncAutomaticDiscount(shopId: string, campaignId: string, active: boolean): Promise<void>;
};

/**
 * The default port: with no platform connection configured, it records the desired state in
 * `discount_syncs`, where an operator or a platform adapter can read it.
 *
 * @example
 *   const port = createRecordingDiscountPort(ctx.db);
 *   await port.syncAutomaticDiscount(shop.id, campaignId, true);
 */
export function createRecordingDiscountPort(db: Database, now: () => Date = () => new Date()): DiscountPort {
  return {
    async syncAutomaticDiscount(shopId, campaignId, active) {
      const syncedAt = now();
      await db
        .insert(discountSyncs)
        .values({ shopId, campaignId, active, syncedAt })
        .onConflictDoUpdate({ target: [discountSyncs.shopId, discountSyncs.campaignId], set: { active, syncedAt: sql`excluded.synced_at` } });
    },
  };
}
