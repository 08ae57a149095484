/**
 * The checkout configuration as the discount_sync job last wrote it, one row per shop
 * (docs/checkout-function.md "How the sync writes it"). Both ports write here, so what a shop's
 * discount holds (or, unconnected, would hold) survives restarts and every instance sees it.
 */
import { eq } from 'drizzle-orm';
import type { CheckoutFunctionVariables, ReadableCheckoutConfig } from '@gcrs/engine/checkout';
import type { Queryable } from '../db/database.ts';
import { checkoutConfigs } from '../db/schema.ts';
import type { StoredCheckoutConfig } from '../db/schema.ts';

/**
 * The shop's checkout function configuration and input variables, as the metafields hold them
 * (the sync writes format 2; a row written before holds format 1 until the next sync).
 */
export type CheckoutConfigWrite = { config: ReadableCheckoutConfig; variables: CheckoutFunctionVariables; bytes: number };

// jsonb does not keep an object's key order (PostgreSQL sorts keys), and format 2's rules are an
// object in the rules' order (stacking and the output's cut follow it): the row keeps them as
// `[key, text]` pairs (StoredCheckoutConfig).
const toRow = (config: ReadableCheckoutConfig): StoredCheckoutConfig => (config.v === 2 ? { ...config, r: Object.entries(config.r) } : config);

const fromRow = (config: StoredCheckoutConfig): ReadableCheckoutConfig =>
  config.v === 2 && Array.isArray(config.r) ? { ...config, r: Object.fromEntries(config.r) } : (config as ReadableCheckoutConfig);

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
    config: toRow(write.config),
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
    config: fromRow(row.config),
    variables: row.variables,
    bytes: row.bytes,
    target: row.target,
    platformDiscountId: row.platformDiscountId,
    writtenAt: row.writtenAt,
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt,
  };
}
