/**
 * The platform port for the automatic discount (SPEC "States": "automatic discount synced";
 * CONTRACT "Checkout"). The outbox dispatcher calls it for every discount_sync job: the
 * campaign's active state, then the shop's checkout function configuration, which the
 * platform keeps as the discount's metafields. admin-discount-port.ts talks to the platform;
 * without platform credentials the recording port below keeps the desired state;
 * shop-discount-port.ts chooses between them per shop.
 */
import { sql } from 'drizzle-orm';
import { getCheckoutConfig, recordCheckoutConfig } from '../checkout/config-store.ts';
import type { CheckoutConfigWrite } from '../checkout/config-store.ts';
import type { Database } from '../db/database.ts';
import { discountSyncs } from '../db/schema.ts';

export type DiscountPort = {
  /**
   * Makes the campaign's automatic discount active or inactive on the platform. Must be
   * idempotent (a job may run more than once); throw to have the job retried.
   */
  syncAutomaticDiscount(shopId: string, campaignId: string, active: boolean): Promise<void>;
  /** Writes the shop's whole checkout configuration (idempotent; throw to retry). */
  writeCheckoutConfig(shopId: string, write: CheckoutConfigWrite): Promise<void>;
  /**
   * Writes a customer's redemption counts (per-customer limits), the compact JSON
   * `{ "<ruleId>": count }`, as their `$app:gifts` / `redemptions` metafield, which the checkout
   * function reads. Idempotent (the value is recomputed by the job; throw to retry). `skipped`
   * when the shop has no platform connection; a port without it skips every write.
   */
  writeCustomerRedemptions?(shopId: string, customerId: string, value: string): Promise<'written' | 'skipped'>;
};

export type RecordingDiscountPort = DiscountPort & {
  /** The configuration last written for the shop (by any instance, before any restart). */
  recordedConfig(shopId: string): Promise<CheckoutConfigWrite | undefined>;
};

/**
 * The default port: with no platform connection configured, it records the desired state in
 * `discount_syncs`, and the checkout configuration in `checkout_configs` (target `recorded`:
 * what the discount's metafields would hold), which GET /admin/v1/shops/:shopId/checkout-config
 * shows.
 *
 * @example
 *   const port = createRecordingDiscountPort(ctx.db);
 *   await port.syncAutomaticDiscount(shop.id, campaignId, true);
 */
export function createRecordingDiscountPort(db: Database, now: () => Date = () => new Date()): RecordingDiscountPort {
  return {
    async syncAutomaticDiscount(shopId, campaignId, active) {
      const syncedAt = now();
      await db
        .insert(discountSyncs)
        .values({ shopId, campaignId, active, syncedAt })
        .onConflictDoUpdate({ target: [discountSyncs.shopId, discountSyncs.campaignId], set: { active, syncedAt: sql`excluded.synced_at` } });
    },
    async writeCheckoutConfig(shopId, write) {
      await recordCheckoutConfig(db, shopId, write, { target: 'recorded', at: now() });
    },
    // Nothing to record it in: the counts are the redemption records themselves.
    writeCustomerRedemptions: () => Promise.resolve('skipped' as const),
    async recordedConfig(shopId) {
      const record = await getCheckoutConfig(db, shopId);
      return record && { config: record.config, variables: record.variables, bytes: record.bytes };
    },
  };
}
