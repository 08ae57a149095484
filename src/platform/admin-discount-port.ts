/**
 * The platform's side of the discount port (CONTRACT "Checkout"), through the platform's
 * official Node client (Admin GraphQL). One automatic app discount per shop runs the
 * gift-discount function; the sync writes the configuration as its metafields
 * (`$app:gifts` `config`, `config2` and `vars`), creating the discount with the function's id first
 * when the shop has none. Campaign on/off is part of the configuration, so
 * `syncAutomaticDiscount` has nothing to do here. shop-discount-port.ts uses it for the shops
 * that hold an access token (connections.ts).
 */
import { splitCheckoutConfig } from '@gcrs/engine/checkout';
import type { CheckoutConfigWrite } from '../checkout/config-store.ts';
import { adminClient, assertAnswered } from './admin-client.ts';
import type { PlatformCredentials } from './admin-client.ts';
import { CREATE_GIFT_DISCOUNT, FIND_GIFT_DISCOUNT, SET_METAFIELDS, giftDiscountSearch } from './admin-documents.ts';
import type { DiscountPort } from './discount-port.ts';

// The version and the 401 error moved to admin-client.ts with the client; kept here for their importers.
export { ADMIN_API_VERSION, PlatformUnauthorizedError } from './admin-client.ts';
export type { PlatformCredentials } from './admin-client.ts';
export const DISCOUNT_TITLE = 'Gift with purchase';
const NAMESPACE = '$app:gifts';

export type AdminDiscountPortOptions = {
  /** The shop's domain and offline access token; undefined when the shop is not connected. */
  credentials(shopId: string): Promise<{ storeDomain: string; accessToken: string } | undefined>;
  /** The deployed function's id (`shopify app deploy` prints it). */
  functionId: string;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
};

type UserErrors = Array<{ field?: string[] | null; message: string }>;

function assertNoErrors(what: string, errors: UserErrors | undefined): void {
  if (errors !== undefined && errors.length > 0) throw new Error(`${what}: ${errors.map((e) => e.message).join('; ')}`);
}

export type PlatformWriteOptions = {
  /** Needed only to create the discount; without it a shop that has none gets an error. */
  functionId: string | undefined;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Replaces `https://<shop domain>` in the Admin API URL (PLATFORM_ADMIN_API_URL): the stand-in. */
  adminApiUrl?: string;
};

/**
 * The discount's metafields for a configuration: every configuration metafield the input query
 * reads (`config`, `config2`: a shrinking configuration writes `{}` to the one it no longer
 * uses, config-metafields.ts) and `vars`, all in one call (metafieldsSet takes up to 25).
 * Throws when the configuration does not fit them: a cut configuration is never written.
 *
 * @example checkoutConfigMetafields(write).map((m) => m.key) // ['config', 'config2', 'vars']
 */
export function checkoutConfigMetafields(write: Pick<CheckoutConfigWrite, 'config' | 'variables'>): Array<{ namespace: string; key: string; type: 'json'; value: string }> {
  const split = splitCheckoutConfig(write.config);
  if (!split.fits) throw new Error('Writing the configuration failed: it does not fit the discount\'s metafields');
  return [
    ...split.metafields.map((metafield) => ({ namespace: NAMESPACE, key: metafield.key, type: 'json' as const, value: metafield.value })),
    { namespace: NAMESPACE, key: 'vars', type: 'json' as const, value: JSON.stringify(write.variables) },
  ];
}

/**
 * Writes the metafields of the shop's gift discount (checkoutConfigMetafields), creating the discount first when the shop
 * has none; returns the discount's id. Throws PlatformUnauthorizedError on a 401, an Error on
 * any other failure (the job is retried).
 *
 * @example const { discountId } = await writeCheckoutConfigToPlatform(credentials, built, { functionId });
 */
export async function writeCheckoutConfigToPlatform(
  credentials: PlatformCredentials,
  write: CheckoutConfigWrite,
  options: PlatformWriteOptions,
): Promise<{ discountId: string }> {
  const client = adminClient(credentials, options);
  const metafields = checkoutConfigMetafields(write);
  const found = await client.request<{ discountNodes: { nodes: Array<{ id: string }> } }>(FIND_GIFT_DISCOUNT, {
    variables: { query: giftDiscountSearch(DISCOUNT_TITLE) },
  });
  assertAnswered('Finding the discount failed', found.errors);
  const ownerId = found.data?.discountNodes.nodes[0]?.id;
  if (ownerId === undefined) {
    if (options.functionId === undefined) throw new Error('Creating the discount failed: PLATFORM_DISCOUNT_FUNCTION_ID is not set');
    const created = await client.request<{ discountAutomaticAppCreate: { automaticAppDiscount: { discountId: string } | null; userErrors: UserErrors } }>(CREATE_GIFT_DISCOUNT, {
      variables: {
        discount: {
          title: DISCOUNT_TITLE,
          functionId: options.functionId,
          startsAt: new Date().toISOString(),
          discountClasses: ['PRODUCT'],
          combinesWith: { orderDiscounts: true, productDiscounts: true, shippingDiscounts: true },
          metafields,
        },
      },
    });
    assertAnswered('Creating the discount failed', created.errors);
    assertNoErrors('Creating the discount failed', created.data?.discountAutomaticAppCreate.userErrors);
    const discountId = created.data?.discountAutomaticAppCreate.automaticAppDiscount?.discountId;
    if (discountId === undefined) throw new Error('Creating the discount failed: the platform returned no discount id');
    return { discountId };
  }
  const set = await client.request<{ metafieldsSet: { userErrors: UserErrors } }>(SET_METAFIELDS, {
    variables: { metafields: metafields.map((metafield) => ({ ...metafield, ownerId })) },
  });
  assertAnswered('Writing the configuration failed', set.errors);
  assertNoErrors('Writing the configuration failed', set.data?.metafieldsSet.userErrors);
  return { discountId: ownerId };
}

/** The customer metafield the checkout function reads for per-customer limits (its input query). */
export const REDEMPTIONS_METAFIELD = { namespace: NAMESPACE, key: 'redemptions', type: 'json' } as const;

/**
 * Sets the customer's `$app:gifts` / `redemptions` metafield to `value` (compact JSON
 * `{ "<ruleId>": count }`). Throws PlatformUnauthorizedError on a 401, an Error on any other
 * failure (the job is retried).
 *
 * @example await writeCustomerRedemptionsToPlatform(credentials, '42', '{"rul_1":2}', { functionId: undefined });
 */
export async function writeCustomerRedemptionsToPlatform(
  credentials: PlatformCredentials,
  customerId: string,
  value: string,
  options: PlatformWriteOptions,
): Promise<void> {
  const client = adminClient(credentials, options);
  const set = await client.request<{ metafieldsSet: { userErrors: UserErrors } }>(SET_METAFIELDS, {
    variables: { metafields: [{ ...REDEMPTIONS_METAFIELD, ownerId: `gid://shopify/Customer/${customerId}`, value }] },
  });
  assertAnswered('Writing the customer\'s redemptions failed', set.errors);
  assertNoErrors('Writing the customer\'s redemptions failed', set.data?.metafieldsSet.userErrors);
}

/**
 * The port alone, for a caller that has its own source of credentials (the service itself
 * chooses per shop: shop-discount-port.ts).
 *
 * @example
 *   const port = createAdminDiscountPort({ credentials, functionId: '01J…' });
 *   await port.writeCheckoutConfig(shop.id, built);
 */
export function createAdminDiscountPort(options: AdminDiscountPortOptions): DiscountPort {
  return {
    syncAutomaticDiscount: () => Promise.resolve(),
    async writeCheckoutConfig(shopId, write: CheckoutConfigWrite) {
      const credentials = await options.credentials(shopId);
      if (credentials === undefined) throw new Error('Shop is not connected to the platform');
      await writeCheckoutConfigToPlatform(credentials, write, { functionId: options.functionId, ...(options.fetch ? { fetch: options.fetch } : {}) });
    },
    async writeCustomerRedemptions(shopId, customerId, value) {
      const credentials = await options.credentials(shopId);
      if (credentials === undefined) return 'skipped';
      await writeCustomerRedemptionsToPlatform(credentials, customerId, value, { functionId: options.functionId, ...(options.fetch ? { fetch: options.fetch } : {}) });
      return 'written';
    },
  };
}
