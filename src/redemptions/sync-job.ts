/**
 * Runs one `redemptions_sync` job (per-customer limits): writes the customer's redemption
 * counts of the shop's limited rules to their `$app:gifts` / `redemptions` metafield through
 * the platform port, recomputed from the redemption records at run time, so retries, several
 * dispatchers and jobs out of order leave the latest committed counts. A shop without a
 * platform connection has nothing to write to: the job finishes, skipped (logged at debug).
 */
import type { Database } from '../db/database.ts';
import type { AttemptOutcome } from '../outbox/attempt-outcome.ts';
import type { DiscountPort } from '../platform/discount-port.ts';
import { customerRedemptionsValue } from './limit-sync.ts';

const CUSTOMER_ID = /^\d{1,32}$/;

/**
 * @example
 *   const outcome = await runRedemptionsSync(db, port, row.shopId, row.payload); // payload { customerId: '42' }
 */
export async function runRedemptionsSync(db: Database, port: DiscountPort, shopId: string, payload: Record<string, unknown>): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const customerId = payload.customerId;
  if (typeof customerId !== 'string' || !CUSTOMER_ID.test(customerId)) {
    return { ok: false, statusCode: null, error: 'Job payload has no numeric customerId', durationMs: 0, final: true };
  }
  try {
    if (port.writeCustomerRedemptions === undefined) return { ok: true, statusCode: null, durationMs: elapsed() };
    const value = await customerRedemptionsValue(db, shopId, customerId);
    await port.writeCustomerRedemptions(shopId, customerId, value);
    return { ok: true, statusCode: null, durationMs: elapsed() };
  } catch (error) {
    return { ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error), durationMs: elapsed() };
  }
}
