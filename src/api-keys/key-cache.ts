/**
 * An in-process cache of API key → verified key and shop, so authentication of GET /rules
 * (and every API route) costs no database read while nothing changed.
 *
 * Exactness (a write committed before a request started is seen by it): entries are only
 * kept when the invalidation bus is the in-process one (`memory`, the embedded database,
 * which exactly one process can open). That bus delivers synchronously, so every write that
 * can change what authentication returns evicts the shop's entries before its caller goes
 * on: writeShop publishes API_KEYS_TOPIC after every commit (plan, settings, limits, rules
 * version), and revoking a key publishes it too. A verification whose read started before
 * such an eviction is not stored (the generation check), so a slow read never re-inserts
 * the old row. With Redis pub/sub or LISTEN/NOTIFY delivery is asynchronous, a revoked key
 * could still pass on another instance for a moment, so there the cache is off and every
 * request reads the key (one prepared statement, see store.ts) — exact on every instance.
 */
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { EVERY_KEY } from '../cache/invalidation-bus.ts';
import type { Queryable } from '../db/database.ts';
import { verifyApiKey } from './store.ts';
import type { VerifiedKey } from './store.ts';

/** The topic whose key is a shop id: "its keys or its shop row changed". */
export const API_KEYS_TOPIC = 'api-keys';

const DEFAULT_MAX_ENTRIES = 10_000;

export type ApiKeyVerifier = {
  /** The live key `key` names with its shop, as verifyApiKey, from memory when exact. */
  verify(key: string): Promise<VerifiedKey | undefined>;
  /** Whether entries are kept at all (only on the in-process bus). */
  readonly caching: boolean;
  close(): void;
};

/**
 * Builds the verifier for `db`; it caches only on the in-process bus (module comment).
 *
 * @example
 *   const verifier = createApiKeyVerifier({ db, bus });
 *   const verified = await verifier.verify(token);
 */
export function createApiKeyVerifier(options: { db: Queryable; bus: InvalidationBus; maxEntries?: number }): ApiKeyVerifier {
  const caching = options.bus.kind === 'memory';
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // Keyed by the full key text: only a caller holding the secret finds an entry.
  const entries = new Map<string, VerifiedKey>();
  // Bumped by every eviction; a read that saw an older generation is not stored.
  let generation = 0;

  const unsubscribe = caching
    ? options.bus.subscribe(API_KEYS_TOPIC, (shopId) => {
        generation += 1;
        if (shopId === EVERY_KEY) entries.clear();
        else for (const [key, entry] of entries) if (entry.shop.id === shopId) entries.delete(key);
      })
    : () => {};

  return {
    caching,
    async verify(key) {
      if (!caching) return verifyApiKey(options.db, key);
      const cached = entries.get(key);
      if (cached) return cached;
      const seen = generation;
      const verified = await verifyApiKey(options.db, key);
      if (verified && seen === generation) {
        entries.set(key, verified);
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (oldest.done !== true) entries.delete(oldest.value);
        }
      }
      return verified;
    },
    close() {
      unsubscribe();
      entries.clear();
    },
  };
}
