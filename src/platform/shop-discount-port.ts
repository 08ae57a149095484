/**
 * The discount port the service runs (src/workers.ts): chosen per shop at job time. A shop that
 * holds a platform access token (connections.ts) gets its configuration written to the
 * platform through the Admin API; any other shop gets the recording port. Both leave the
 * configuration in `checkout_configs`. A 401 from the platform marks the connection broken
 * (GET …/platform-connection shows it, the log says it) and the job is retried on the outbox's
 * schedule, so a token replaced in the meantime is used by the next attempt.
 */
import type { Logger } from 'pino';
import { recordCheckoutConfig, recordCheckoutConfigError } from '../checkout/config-store.ts';
import type { Database } from '../db/database.ts';
import { PlatformUnauthorizedError, writeCheckoutConfigToPlatform, writeCustomerRedemptionsToPlatform } from './admin-discount-port.ts';
import { markConnectionBroken, shopCredentials } from './connections.ts';
import { createRecordingDiscountPort } from './discount-port.ts';
import type { DiscountPort } from './discount-port.ts';

export type ShopDiscountPortOptions = {
  db: Database;
  logger: Logger;
  /** PLATFORM_APP_SECRET: opens the sealed tokens; without it no shop is connected. */
  secret: string | undefined;
  /** PLATFORM_DISCOUNT_FUNCTION_ID. */
  functionId: string | undefined;
  /** PLATFORM_ADMIN_API_URL. */
  adminApiUrl: string | undefined;
  /** Injected for tests; the global fetch and clock otherwise. */
  fetch?: typeof fetch;
  now?: () => Date;
};

/**
 * @example
 *   const port = createShopDiscountPort({ db: ctx.db, logger: ctx.logger, secret: ctx.config.platformAppSecret, … });
 */
export function createShopDiscountPort(options: ShopDiscountPortOptions): DiscountPort {
  const { db, secret } = options;
  const now = options.now ?? (() => new Date());
  const recording = createRecordingDiscountPort(db, now);
  const log = options.logger.child({ component: 'discount-port' });

  async function writeToPlatform(shopId: string, write: Parameters<DiscountPort['writeCheckoutConfig']>[1]): Promise<void> {
    const credentials = await shopCredentials(db, secret, shopId);
    if (credentials.state === 'none' || secret === undefined) return recording.writeCheckoutConfig(shopId, write);
    try {
      if (credentials.state === 'unreadable') {
        // The token was sealed under another PLATFORM_APP_SECRET: nothing to send, the operator reconnects.
        throw new PlatformUnauthorizedError('The platform access token cannot be opened with this PLATFORM_APP_SECRET: connect the shop again');
      }
      const { discountId } = await writeCheckoutConfigToPlatform(credentials, write, {
        functionId: options.functionId,
        ...(options.adminApiUrl === undefined ? {} : { adminApiUrl: options.adminApiUrl }),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      await recordCheckoutConfig(db, shopId, write, { target: 'platform', at: now(), platformDiscountId: discountId });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = now();
      if (error instanceof PlatformUnauthorizedError) {
        await markConnectionBroken(db, shopId, message, at);
        log.warn({ shopId }, 'platform connection broken: the platform refused the access token; connect the shop again');
      }
      await recordCheckoutConfigError(db, shopId, message, at);
      throw error;
    }
  }

  /** A customer's redemption counts (per-customer limits): to the platform when connected, else skipped. */
  async function writeCustomerRedemptions(shopId: string, customerId: string, value: string): Promise<'written' | 'skipped'> {
    const credentials = await shopCredentials(db, secret, shopId);
    if (credentials.state === 'none' || secret === undefined) return 'skipped';
    try {
      if (credentials.state === 'unreadable') {
        throw new PlatformUnauthorizedError('The platform access token cannot be opened with this PLATFORM_APP_SECRET: connect the shop again');
      }
      await writeCustomerRedemptionsToPlatform(credentials, customerId, value, {
        functionId: options.functionId,
        ...(options.adminApiUrl === undefined ? {} : { adminApiUrl: options.adminApiUrl }),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      return 'written';
    } catch (error) {
      if (error instanceof PlatformUnauthorizedError) {
        await markConnectionBroken(db, shopId, error.message, now());
        log.warn({ shopId }, 'platform connection broken: the platform refused the access token; connect the shop again');
      }
      throw error;
    }
  }

  return {
    // The campaign's state is the service's own record; the platform learns it from the configuration.
    syncAutomaticDiscount: (shopId, campaignId, active) => recording.syncAutomaticDiscount(shopId, campaignId, active),
    writeCheckoutConfig: writeToPlatform,
    writeCustomerRedemptions,
  };
}
