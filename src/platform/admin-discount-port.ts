/**
 * The platform's side of the discount port (CONTRACT "Checkout"), through the platform's
 * official Node client (Admin GraphQL). One automatic app discount per shop runs the
 * gift-discount function; the sync writes the configuration as its metafields
 * (`$app:gifts` `config` and `vars`), creating the discount with the function's id first
 * when the shop has none. Campaign on/off is part of the configuration, so
 * `syncAutomaticDiscount` has nothing to do here. Not wired by default: a shop's offline
 * access token is not stored yet (see docs/checkout-function.md).
 */
import { createAdminApiClient } from '@shopify/admin-api-client';
import type { CheckoutConfigWrite, DiscountPort } from './discount-port.ts';

export const ADMIN_API_VERSION = '2025-10';
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

const FIND = `query FindGiftDiscount($query: String!) { automaticDiscountNodes(first: 1, query: $query) { nodes { id } } }`;
const CREATE = `mutation CreateGiftDiscount($discount: DiscountAutomaticAppInput!) {
  discountAutomaticAppCreate(automaticAppDiscount: $discount) { automaticAppDiscount { discountId } userErrors { field message } }
}`;
const SET = `mutation SetGiftConfig($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message } }
}`;

type UserErrors = Array<{ field?: string[] | null; message: string }>;

function assertNoErrors(what: string, errors: UserErrors | undefined): void {
  if (errors !== undefined && errors.length > 0) throw new Error(`${what}: ${errors.map((e) => e.message).join('; ')}`);
}

/**
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
      const client = createAdminApiClient({
        ...credentials,
        apiVersion: ADMIN_API_VERSION,
        ...(options.fetch ? { customFetchApi: options.fetch } : {}),
      });
      const metafields = [
        { namespace: NAMESPACE, key: 'config', type: 'json', value: JSON.stringify(write.config) },
        { namespace: NAMESPACE, key: 'vars', type: 'json', value: JSON.stringify(write.variables) },
      ];
      const found = await client.request<{ automaticDiscountNodes: { nodes: Array<{ id: string }> } }>(FIND, {
        variables: { query: `title:'${DISCOUNT_TITLE}'` },
      });
      if (found.errors) throw new Error(`Finding the discount failed: ${found.errors.message ?? 'unknown error'}`);
      const ownerId = found.data?.automaticDiscountNodes.nodes[0]?.id;
      if (ownerId === undefined) {
        const created = await client.request<{ discountAutomaticAppCreate: { userErrors: UserErrors } }>(CREATE, {
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
        if (created.errors) throw new Error(`Creating the discount failed: ${created.errors.message ?? 'unknown error'}`);
        assertNoErrors('Creating the discount failed', created.data?.discountAutomaticAppCreate.userErrors);
        return;
      }
      const set = await client.request<{ metafieldsSet: { userErrors: UserErrors } }>(SET, {
        variables: { metafields: metafields.map((metafield) => ({ ...metafield, ownerId })) },
      });
      if (set.errors) throw new Error(`Writing the configuration failed: ${set.errors.message ?? 'unknown error'}`);
      assertNoErrors('Writing the configuration failed', set.data?.metafieldsSet.userErrors);
    },
  };
}
