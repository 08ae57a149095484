/**
 * The checkout configuration as the discount_sync job last wrote it, one row per shop
 * (docs/checkout-function.md "How the sync writes it"). Both ports write here, so what a shop's
 * discount holds (or, unconnected, would hold) survives restarts and every instance sees it.
 */
import { eq } from 'drizzle-orm';
import type { CheckoutFunctionConfig, CheckoutFunctionVariables } from '@gcrs/engine/checkout';
import type { Queryable } from '../db/database.ts';
import { checkoutConfigs } from '../db/schema.ts';

/** The shop's checkout function configuration and input variables, as the metafields hold them. */
export type CheckoutConfigWrite = { config: CheckoutFunctionConfig; variables: CheckoutFunctionVariables; bytes: number };

/** Where the configuration went: the platform's metafields, or only this table (no connection). */
export type CheckoutConfigTarget = (typeof checkoutConfigs.$inferSelect)['target'];

export type CheckoutConfigRecord = CheckoutConfigWrite & {
  target: CheckoutConfigTarget;
  platformDiscountId: string | null;
  writtenAt: Date;
  lastError: string | null;
  lastErrorAt: Date | null;
};

/**
 * Records a successful write; clears the last error.
 *
 * @example await recordCheckoutConfig(db, shop.id, write, { target: 'recorded', at: new Date() });
 */
export async function recordCheckoutConfig(
  db: Queryable,
  shopId: string,
  write: CheckoutConfigWrite,
  options: { target: CheckoutConfigTarget; at: Date; platformDiscountId?: string },
): Promise<void> {
  const values = {
    config: write.config,
    variables: write.variables,
    bytes: write.bytes,
    target: options.target,
    // A recorded write keeps the id of the discount a former connection created.
    ...(options.platformDiscountId === undefined ? {} : { platformDiscountId: options.platformDiscountId }),
    writtenAt: options.at,
    lastError: null,
    lastErrorAt: null,
  };
  await db.insert(checkoutConfigs).values({ shopId, ...values }).onConflictDoUpdate({ target: checkoutConfigs.shopId, set: values });
}

/** Notes a failed write to the platform on the shop's row (none yet: the outbox's log has it). */
export async function recordCheckoutConfigError(db: Queryable, shopId: string, error: string, at: Date): Promise<void> {
  await db.update(checkoutConfigs).set({ lastError: error, lastErrorAt: at }).where(eq(checkoutConfigs.shopId, shopId));
}

/** The shop's last written configuration; undefined when none was ever synced. */
export async function getCheckoutConfig(db: Queryable, shopId: string): Promise<CheckoutConfigRecord | undefined> {
  const [row] = await db.select().from(checkoutConfigs).where(eq(checkoutConfigs.shopId, shopId));
  if (!row) return undefined;
  return {
    config: row.config,
    variables: row.variables,
    bytes: row.bytes,
    target: row.target,
    platformDiscountId: row.platformDiscountId,
    writtenAt: row.writtenAt,
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt,
  };
}
