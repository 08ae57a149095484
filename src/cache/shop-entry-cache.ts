/**
 * An in-process cache of "credential → what it opens" (a storefront token's shop, a shop found
 * by domain), so authentication on the hot paths costs no database read while nothing changed.
 * API keys use the shared shop version instead (src/api-keys/key-cache.ts), which also caches
 * on every instance with Redis.
 *
 * Exactness (a write committed before a request started is seen by it): entries are only
 * kept when the invalidation bus is the in-process one (`memory`, the embedded database,
 * which exactly one process can open). That bus delivers synchronously, so every write that
 * can change what authentication returns evicts the shop's entries before its caller goes
 * on: writeShop publishes SHOP_AUTH_TOPIC after every commit (plan, settings, limits, rules
 * version), and revoking a key or a storefront token publishes it too. A load whose read
 * started before such an eviction is not stored (the generation check), so a slow read never
 * re-inserts the old row. With Redis pub/sub or LISTEN/NOTIFY delivery is asynchronous, a
 * revoked credential could still pass on another instance for a moment, so there the cache is
 * off and every request reads the database — exact on every instance.
 */
import type { InvalidationBus } from './invalidation-bus.ts';
import { EVERY_KEY } from './invalidation-bus.ts';

/** The topic whose key is a shop id: "its credentials or its shop row changed". */
export const SHOP_AUTH_TOPIC = 'api-keys';

const DEFAULT_MAX_ENTRIES = 10_000;

export type ShopEntryCache<V> = {
  /** The cached value of `key`, else `load()`'s, kept when found and still exact. */
  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>;
  /** Whether entries are kept at all (only on the in-process bus). */
  readonly caching: boolean;
  close(): void;
};

/**
 * Builds a cache whose values each belong to the shop `shopIdOf` names; a SHOP_AUTH_TOPIC
 * message for that shop evicts them. Misses (undefined) are never stored.
 *
 * @example
 *   const cache = createShopEntryCache<VerifiedKey>({ bus, shopIdOf: (v) => v.shop.id });
 *   const verified = await cache.get(key, () => verifyApiKey(db, key));
 */
export function createShopEntryCache<V>(options: { bus: InvalidationBus; shopIdOf: (value: V) => string; maxEntries?: number }): ShopEntryCache<V> {
  const caching = options.bus.kind === 'memory';
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // Keyed by the full credential text: only a caller holding it finds an entry.
  const entries = new Map<string, V>();
  // Bumped by every eviction; a load that saw an older generation is not stored.
  let generation = 0;

  const unsubscribe = caching
    ? options.bus.subscribe(SHOP_AUTH_TOPIC, (shopId) => {
        generation += 1;
        if (shopId === EVERY_KEY) entries.clear();
        else for (const [key, value] of entries) if (options.shopIdOf(value) === shopId) entries.delete(key);
      })
    : () => {};

  return {
    caching,
    async get(key, load) {
      if (!caching) return load();
      const cached = entries.get(key);
      if (cached !== undefined) return cached;
      const seen = generation;
      const loaded = await load();
      if (loaded !== undefined && seen === generation) {
        entries.set(key, loaded);
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (oldest.done !== true) entries.delete(oldest.value);
        }
      }
      return loaded;
    },
    close() {
      unsubscribe();
      entries.clear();
    },
  };
}
