/**
 * Embedding in the platform's admin (docs/merchant-admin.md "Embedded"): who may frame the
 * page, and whether it loads App Bridge.
 *
 * The platform opens an embedded app at its URL with a signed query (`embedded`, `host`,
 * `shop`, `timestamp`, …, `hmac`: hex HMAC-SHA256 keyed with the app secret). The platform's
 * documented rule for every HTML response is a `Content-Security-Policy: frame-ancestors`
 * naming the authenticated shop's own domain and `https://admin.shopify.com`, and `'none'`
 * when the page is not rendered in the admin. "Authenticated" is the point: the shop is taken
 * only from a query whose `hmac` verifies and whose domain is a shop of this service, so a
 * page of another store cannot get itself allowed to frame this one by naming itself.
 *
 * The signature and the domain are checked by the platform's official library
 * (`@shopify/shopify-api`: `utils.validateHmac` with the `admin` signator, its 90 s timestamp
 * window, and `utils.sanitizeShop`): CONTRACT fixes nothing here, so its rules are the
 * platform's. It is imported at the first signed request only (~100 modules), so starting the
 * service does not pay for it.
 */
import type { Queryable } from '../db/database.ts';
import { getShopByDomain } from '../shops/store.ts';

/** The platform's admin origin, which frames every embedded app. */
export const PLATFORM_ADMIN_ORIGIN = 'https://admin.shopify.com';

/** The App Bridge script the platform requires as the first script of an embedded page. */
export const APP_BRIDGE_SCRIPT = 'https://cdn.shopify.com/shopifycloud/app-bridge.js';

type Utils = {
  validateHmac: (query: Record<string, string>, options: { signator: 'admin' }) => Promise<boolean>;
  sanitizeShop: (shop: string) => string | null;
};

const utilsByCredentials = new Map<string, Promise<Utils>>();

/** The library's utilities for one app's credentials, built once. */
function platformUtils(appKey: string, appSecret: string): Promise<Utils> {
  const id = `${appKey}\u0000${appSecret}`;
  let utils = utilsByCredentials.get(id);
  if (!utils) {
    utils = (async () => {
      await import('@shopify/shopify-api/adapters/node');
      const { shopifyApi, ApiVersion, LogSeverity } = await import('@shopify/shopify-api');
      // hostName and apiVersion are required by the constructor and unused by the two utilities
      // (the version is the one the Admin API client speaks, src/platform/admin-discount-port.ts).
      const api = shopifyApi({ apiKey: appKey, apiSecretKey: appSecret, hostName: 'localhost', apiVersion: ApiVersion.October25, isEmbeddedApp: true, logger: { level: LogSeverity.Error } });
      return api.utils as unknown as Utils;
    })();
    utils.catch(() => utilsByCredentials.delete(id));
    utilsByCredentials.set(id, utils);
  }
  return utils;
}

export type EmbeddingInput = {
  db: Queryable;
  appKey: string | undefined;
  appSecret: string | undefined;
  /** The page request's query, as Fastify parsed it. */
  query: unknown;
};

/**
 * The domain of the shop whose admin may frame this page load, or undefined when the load is
 * not a verified admin load of a known shop (no app credentials, no or a wrong `hmac`, a stale
 * `timestamp`, a repeated parameter, a domain that is not a platform shop domain, an unknown shop).
 *
 * @example
 *   const shop = await embeddingShop({ db, appKey, appSecret, query: request.query }); // 'acme.myshopify.com' | undefined
 */
export async function embeddingShop(input: EmbeddingInput): Promise<string | undefined> {
  const { appKey, appSecret, query } = input;
  if (!appKey || !appSecret || typeof query !== 'object' || query === null) return undefined;
  const params = query as Record<string, unknown>;
  // Every value must be single: a repeated parameter has no one signed meaning.
  if (!Object.values(params).every((value) => typeof value === 'string')) return undefined;
  const { shop, hmac } = params as Record<string, string | undefined>;
  if (!shop || !hmac) return undefined;
  const utils = await platformUtils(appKey, appSecret);
  const domain = utils.sanitizeShop(shop);
  if (!domain) return undefined;
  let valid = false;
  try {
    valid = await utils.validateHmac(params as Record<string, string>, { signator: 'admin' });
  } catch {
    // The library throws for a missing or stale timestamp: not a verified load.
    valid = false;
  }
  if (!valid) return undefined;
  return (await getShopByDomain(input.db, domain)) ? domain : undefined;
}

/**
 * The `Content-Security-Policy` of an HTML response: framed by the shop's admin, or by no one.
 *
 * @example
 *   frameAncestors('acme.myshopify.com'); // "frame-ancestors https://acme.myshopify.com https://admin.shopify.com;"
 *   frameAncestors(undefined);            // "frame-ancestors 'none';"
 */
export function frameAncestors(shopDomain: string | undefined): string {
  return shopDomain ? `frame-ancestors https://${shopDomain} ${PLATFORM_ADMIN_ORIGIN};` : "frame-ancestors 'none';";
}
