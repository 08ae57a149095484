/**
 * The storefront's credential lookups, cached like API keys (src/cache/shop-entry-cache.ts):
 * a token → its shop and origins, a signed `shop` domain → its shop. Every shopper's page
 * asks for the rules, so without this each request would read the database before the
 * cached rules bytes could be written.
 */
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { createShopEntryCache } from '../cache/shop-entry-cache.ts';
import type { Queryable } from '../db/database.ts';
import { getShopByDomain } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';
import { verifyStorefrontToken } from './tokens.ts';
import type { VerifiedStorefrontToken } from './tokens.ts';

export type StorefrontAuth = {
  /** The live token `token` names, with its shop (as verifyStorefrontToken), from memory when exact. */
  verifyToken(token: string): Promise<VerifiedStorefrontToken | undefined>;
  /** The shop whose domain is `domain` (lowercase), from memory when exact. */
  shopByDomain(domain: string): Promise<ShopRecord | undefined>;
  close(): void;
};

/**
 * Builds the lookups; they cache only on the in-process bus. Revoking a token must publish
 * SHOP_AUTH_TOPIC for its shop (the admin route does).
 *
 * @example
 *   const auth = createStorefrontAuth({ db, bus }); await auth.verifyToken(header);
 */
export function createStorefrontAuth(options: { db: Queryable; bus: InvalidationBus }): StorefrontAuth {
  const tokens = createShopEntryCache<VerifiedStorefrontToken>({ bus: options.bus, shopIdOf: (verified) => verified.shop.id });
  const domains = createShopEntryCache<ShopRecord>({ bus: options.bus, shopIdOf: (shop) => shop.id });
  return {
    verifyToken: (token) => tokens.get(token, () => verifyStorefrontToken(options.db, token)),
    shopByDomain: (domain) => domains.get(domain, () => getShopByDomain(options.db, domain)),
    close() {
      tokens.close();
      domains.close();
    },
  };
}
