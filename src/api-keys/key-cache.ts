/**
 * An in-process cache of API key → verified key and shop, so authentication of GET /rules
 * (and every API route) costs no database read while nothing changed.
 *
 * Exactness (a write answered before a request started is seen by it, on every instance):
 * each entry is stamped with its shop's version (cache/shop-versions.ts) as read *before* the
 * database read that filled it, and is served only while the shop's current version is still
 * that token. Every write that can change what authentication returns — writeShop (plan,
 * limits, settings, rules version), key revocation, the CLI's plan change and revocation —
 * sets a new version after its commit and before its answer. So a request that starts after
 * the answer reads the new version and goes to the database; a stamp can only be older than
 * the data under it, never newer.
 *
 * Where the version is read:
 * - Redis (REDIS_URL): in the rate-limit script the request runs anyway, one round trip for
 *   both. A cached key is therefore counted in the same step that confirms it; only a holder
 *   of the full key text finds an entry, so a request that is not the shop's own is never
 *   counted. A busy key's requests are mostly answered from leased limiter slots, with the
 *   version the lease's call read; a bump waits for those leases to end before its write is
 *   answered (shop-versions.ts), so that stays exact. When Redis does not answer (fallback
 *   limiter), the version is unknown and the key is read from the database: the cache is
 *   off, never stale. A lost connection raises
 *   the versions' epoch, and entries of an older epoch are never served.
 * - Embedded PGlite: in process, bumped synchronously (one process owns the data directory).
 * - PostgreSQL without Redis: nowhere shared and synchronous, so nothing is cached and every
 *   request reads its key (one prepared statement, see store.ts).
 *
 * With Redis a token expires VERSION_TTL_MS after it was set, and each key of the shop was then
 * read again on a request's path; key-refresh.ts renews the tokens of the busy entries ahead of
 * that, off the path, and keeps the same bound on a lost bump.
 */
import { VERSION_TTL_MS } from '../cache/shop-versions.ts';
import type { ShopVersions } from '../cache/shop-versions.ts';
import type { Queryable } from '../db/database.ts';
import type { CountedDecision, VersionRead } from '../rate-limit/limiter.ts';
import { createKeyRefresher } from './key-refresh.ts';
import type { CachedKey, KeyRefresher } from './key-refresh.ts';
import { shopIdOfKey, verifyApiKey } from './store.ts';
import type { VerifiedKey } from './store.ts';

/**
 * Keys kept per instance, first in first out. An instance serving 10,000 shops holds a key or
 * more of each (a storefront's, a server's), and once the keys in use outnumber the bound
 * every request of a key that was pushed out reads the database (a cyclic load over 10,001
 * keys with a bound of 10,000 misses on every request). An entry is the key's id and prefix
 * and its shop row: ~1–2 KB of heap, so the bound costs at most ~100 MB.
 */
export const API_KEY_CACHE_MAX_ENTRIES = 50_000;

/** Counts the request against the key's window; with `version`, also reads the shop's version. */
export type CountRequest = (shopId: string, keyId: string, version: VersionRead | undefined) => Promise<CountedDecision>;

/**
 * CountRequest decided at once where the limiter can (RateLimiter.hitNow): with
 * `expectedVersion`, only from a lease that read that token. Undefined, counting nothing, otherwise.
 */
export type CountRequestNow = (shopId: string, keyId: string, version: VersionRead | undefined, expectedVersion: string | undefined) => CountedDecision | undefined;

/** A verified key, and the limiter's decision when verification already counted the request. */
export type Authentication = { verified: VerifiedKey; decision: CountedDecision | undefined };

export type ApiKeyVerifier = {
  /** The live key `key` names with its shop (verifyApiKey), from memory while that is exact. */
  authenticate(key: string, count: CountRequest): Promise<Authentication | undefined>;
  /**
   * `authenticate`'s answer when memory gives it without waiting: on embedded PGlite an entry
   * of the shop's current version (not counted: `decision` undefined); with Redis an entry
   * whose version token a live limiter lease of this instance read, counted from that lease by
   * `countNow` (the same decision `authenticate` would get from it). Undefined otherwise, with
   * nothing counted: call `authenticate`.
   */
  authenticateNow(key: string, countNow?: CountRequestNow): Authentication | undefined;
  /** Whether entries are kept at all (not on PostgreSQL without Redis). */
  readonly caching: boolean;
  /** Keys read from the database on a request's path, and answered from memory, so far. */
  stats(): { reads: number; hits: number };
  /** With Redis, the renewals of busy entries' tokens (key-refresh.ts); undefined otherwise. */
  readonly refresher: Pick<KeyRefresher, 'refresh' | 'stats'> | undefined;
  close(): void;
};

/**
 * `shopId` is the shop the key text names (shopIdOfKey), and `versionRead` where its version
 * lives in Redis: both kept so a hit parses and builds nothing (the limiter then compares the
 * lease's version key with the same string). The rest is key-refresh.ts's.
 */
type Entry = CachedKey;

/** Whether `version`, read by the limiter, vouches for `entry` (its token, or the one renewed into it). */
const matches = (entry: Entry, version: string | undefined): boolean =>
  version !== undefined && (version === entry.version || version === entry.renewedFrom);

/**
 * Builds the verifier for `db` (module comment for when it caches).
 *
 * @example
 *   const verifier = createApiKeyVerifier({ db, versions });
 *   const auth = await verifier.authenticate(token, (shopId, keyId, version) => limiter.hit(`{${shopId}}:${keyId}:default`, 120, 60_000, version));
 */
export function createApiKeyVerifier(options: { db: Queryable; versions: ShopVersions; maxEntries?: number; refresh?: { intervalMs?: number; leadMs?: number } }): ApiKeyVerifier {
  const { db, versions } = options;
  const maxEntries = options.maxEntries ?? API_KEY_CACHE_MAX_ENTRIES;
  // Keyed by the full key text: only a caller holding the secret finds an entry.
  const entries = new Map<string, Entry>();

  const remember = (key: string, shopId: string, verified: VerifiedKey | undefined, version: string | undefined, epoch: number) => {
    if (!verified || version === undefined) {
      entries.delete(key);
      return;
    }
    entries.set(key, {
      verified,
      shopId,
      versionRead: versions.mode === 'redis' ? versions.versionRead(shopId) : undefined,
      version,
      renewedFrom: undefined,
      epoch,
      expiresAt: performance.now() + VERSION_TTL_MS,
      used: false,
    });
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done !== true) entries.delete(oldest.value);
    }
  };

  const refresher: KeyRefresher | undefined =
    versions.mode === 'redis' ? createKeyRefresher({ db, versions, entries, ...options.refresh }) : undefined;

  let reads = 0;
  let hits = 0;
  const read = (key: string): Promise<VerifiedKey | undefined> => {
    reads += 1;
    return verifyApiKey(db, key);
  };

  const withoutCount = (verified: VerifiedKey | undefined): Authentication | undefined =>
    verified ? { verified, decision: undefined } : undefined;

  const authenticate = async (key: string, count: CountRequest): Promise<Authentication | undefined> => {
    if (versions.mode === 'off') return withoutCount(await read(key));
    const entry = entries.get(key);
    const shopId = entry?.shopId ?? shopIdOfKey(key);
    if (shopId === undefined) return undefined;

    if (versions.mode === 'local') {
      const version = versions.read(shopId);
      if (entry?.version === version) {
        entry.used = true;
        hits += 1;
        return withoutCount(entry.verified);
      }
      const verified = await read(key);
      remember(key, shopId, verified, version, 0);
      return withoutCount(verified);
    }

    const epoch = versions.epoch;
    if (entry?.epoch === epoch) {
      // The version comes back with the limiter's decision, read before any database read below.
      const decision = await count(entry.verified.shop.id, entry.verified.keyId, entry.versionRead ?? versions.versionRead(shopId));
      if (matches(entry, decision.version) && versions.epoch === epoch) {
        entry.used = true;
        hits += 1;
        return { verified: entry.verified, decision };
      }
      const verified = await read(key);
      remember(key, shopId, verified, versions.epoch === epoch ? decision.version : undefined, epoch);
      return verified ? { verified, decision } : undefined;
    }
    const version = await versions.read(shopId);
    const verified = await read(key);
    remember(key, shopId, verified, versions.epoch === epoch ? version : undefined, epoch);
    return withoutCount(verified);
  };

  return {
    caching: versions.mode !== 'off',
    refresher,
    authenticate,
    authenticateNow(key, countNow) {
      if (versions.mode === 'off') return undefined;
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (versions.mode === 'local') return entry.version === versions.read(entry.shopId) ? withoutCount(entry.verified) : undefined;
      if (entry.epoch !== versions.epoch || countNow === undefined) return undefined;
      // As in `authenticate`, but only a lease that read this entry's very token (or the one
      // renewed into it) may count it; countNow counts nothing when it answers undefined.
      const versionRead = entry.versionRead ?? versions.versionRead(entry.shopId);
      const { shop, keyId } = entry.verified;
      let decision = countNow(shop.id, keyId, versionRead, entry.version);
      if (decision === undefined && entry.renewedFrom !== undefined) decision = countNow(shop.id, keyId, versionRead, entry.renewedFrom);
      if (decision === undefined || !matches(entry, decision.version)) return undefined;
      entry.used = true;
      hits += 1;
      return { verified: entry.verified, decision };
    },
    stats: () => ({ reads, hits }),
    close() {
      refresher?.close();
      entries.clear();
    },
  };
}
