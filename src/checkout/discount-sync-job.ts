/**
 * Runs one discount_sync job through the platform port. The job does not trust the `active`
 * it was queued with: it syncs the campaign's state as it is now and re-reads it afterwards,
 * so jobs that run late, twice or out of order (retries, several dispatchers) still leave the
 * platform matching the latest committed state. Then it writes the shop's checkout function
 * configuration (CONTRACT "Checkout"), rebuilt from the live rules: a configuration over the
 * platform's 10,000 bytes is never truncated — the job fails with the size and the platform
 * keeps the last configuration that fitted (the new gifts are charged, nothing given away).
 */
import { and, eq } from 'drizzle-orm';
import { CHECKOUT_CONFIG_LIMIT_BYTES, CONFIG_METAFIELD_KEYS } from '@gcrs/engine/checkout';
import type { Database, Queryable } from '../db/database.ts';
import { campaigns } from '../db/schema.ts';
import type { AttemptOutcome } from '../outbox/attempt-outcome.ts';
import type { DiscountPort } from '../platform/discount-port.ts';
import { writeOutbox } from '../outbox/enqueue.ts';
import type { DiscountSyncPayload } from '../outbox/enqueue.ts';
import { shopCheckoutConfig } from './shop-checkout-config.ts';

// A campaign toggled this often during one job is left to the next job (each change queues one).
const MAX_ROUNDS = 3;

/** Live (enabled and not draft); a deleted campaign is not live. */
async function isLiveNow(db: Queryable, shopId: string, campaignId: string): Promise<boolean> {
  const [row] = await db
    .select({ enabled: campaigns.enabled, isDraft: campaigns.isDraft })
    .from(campaigns)
    .where(and(eq(campaigns.shopId, shopId), eq(campaigns.id, campaignId)));
  return row !== undefined && row.enabled && !row.isDraft;
}

/**
 * Syncs the campaign named by the job's payload until the state read after the sync equals
 * the one synced.
 *
 * @example
 *   const outcome = await runDiscountSync(db, port, row.shopId, row.payload);
 */
export async function runDiscountSync(
  db: Database,
  port: DiscountPort,
  shopId: string,
  payload: Record<string, unknown>,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const campaignId = payload.campaignId;
  // An install's job (src/install/install.ts): no campaign changed; the shop's discount is
  // created on the platform (when missing) with the configuration of its live rules.
  if (payload.setup === true) {
    try {
      return await writeConfig(db, port, shopId, { setup: true }, elapsed);
    } catch (error) {
      return { ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error), durationMs: elapsed() };
    }
  }
  if (typeof campaignId !== 'string') {
    return { ok: false, statusCode: null, error: 'Job payload has no campaignId', durationMs: 0, final: true };
  }
  try {
    let active = await isLiveNow(db, shopId, campaignId);
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      await port.syncAutomaticDiscount(shopId, campaignId, active);
      const after = await isLiveNow(db, shopId, campaignId);
      if (after === active) return await writeConfig(db, port, shopId, { campaignId, active: true }, elapsed);
      active = after;
    }
    return { ok: false, statusCode: null, error: 'Campaign state kept changing during the sync', durationMs: elapsed() };
  } catch (error) {
    return { ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error), durationMs: elapsed() };
  }
}

async function writeConfig(db: Database, port: DiscountPort, shopId: string, followUp: DiscountSyncPayload, elapsed: () => number): Promise<AttemptOutcome> {
  const current = await shopCheckoutConfig(db, shopId);
  if (current === undefined) return { ok: true, statusCode: null, durationMs: elapsed() };
  const { built, until } = current;
  // The function cannot read the time precisely, so the configuration holds the rules in their
  // window now, and the next schedule boundary gets its own sync (one job per boundary).
  if (Number.isFinite(until)) {
    await writeOutbox(db, shopId, [{ kind: 'discount_sync', payload: followUp, once: { id: `obx_cfg_${until.toString(36)}`, at: new Date(until) } }]);
  }
  if (!built.fits) {
    const error = `Checkout configuration is ${built.bytes} bytes, more than its ${CONFIG_METAFIELD_KEYS.length} metafields of ${CHECKOUT_CONFIG_LIMIT_BYTES} bytes hold: not written`;
    return { ok: false, statusCode: null, error, durationMs: elapsed(), final: true };
  }
  await port.writeCheckoutConfig(shopId, { config: built.config, variables: built.variables, bytes: built.bytes });
  return { ok: true, statusCode: null, durationMs: elapsed() };
}
