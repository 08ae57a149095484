/**
 * An in-process cache of API key → verified key and shop, so authentication of GET /rules
 * (and every API route) costs no database read while nothing changed. Exact by the rules of
 * src/cache/shop-entry-cache.ts: kept only on the in-process bus, evicted per shop after every
 * shop write and key revocation.
 */
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { createShopEntryCache, SHOP_AUTH_TOPIC } from '../cache/shop-entry-cache.ts';
import type { Queryable } from '../db/database.ts';
import { verifyApiKey } from './store.ts';
import type { VerifiedKey } from './store.ts';

/** The topic whose key is a shop id: "its keys or its shop row changed". */
export const API_KEYS_TOPIC = SHOP_AUTH_TOPIC;

export type ApiKeyVerifier = {
  /** The live key `key` names with its shop, as verifyApiKey, from memory when exact. */
  verify(key: string): Promise<VerifiedKey | undefined>;
  /** Whether entries are kept at all (only on the in-process bus). */
  readonly caching: boolean;
  close(): void;
};

/**
 * Builds the verifier for `db`; it caches only on the in-process bus.
 *
 * @example
 *   const verifier = createApiKeyVerifier({ db, bus });
 *   const verified = await verifier.verify(token);
 */
export function createApiKeyVerifier(options: { db: Queryable; bus: InvalidationBus; maxEntries?: number }): ApiKeyVerifier {
  const cache = createShopEntryCache<VerifiedKey>({
    bus: options.bus,
    shopIdOf: (verified) => verified.shop.id,
    ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
  });
  return {
    caching: cache.caching,
    verify: (key) => cache.get(key, () => verifyApiKey(options.db, key)),
    close: () => cache.close(),
  };
}
