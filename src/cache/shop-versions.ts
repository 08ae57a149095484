/**
 * One shared version per shop for everything authentication hands out (its keys and its shop
 * row, which carries the rules version): the token that lets every instance keep key → shop
 * and rules in memory and still see every write at the next request (docs/rules-payload.md
 * "Authentication from memory").
 *
 * A version is an opaque random token, not a counter: a token is never reused, so an entry
 * stamped with a lost token (Redis restarted, the key expired) can never match again.
 *
 * - `redis` (REDIS_URL): the token is a Redis key, read in the round trip the request makes
 *   anyway (the rate-limit script returns it, and seeds it when missing). Every write sets a
 *   new token after its commit and before its response. The key expires after
 *   VERSION_TTL_MS, so a bump that could not reach Redis goes stale within that time at the
 *   latest. A lost connection raises `epoch`: caches drop what they stamped before it.
 * - `local` (embedded PGlite, one process): the token lives in this process and is bumped
 *   synchronously.
 * - `off` (PostgreSQL without Redis): there is no shared, synchronously read place, so caches
 *   read the database on every request.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { VersionRead } from '../rate-limit/limiter.ts';
import type { RedisClient } from '../redis/connection.ts';

/** How long a token lives in Redis; also the longest a bump that failed can go unseen. */
export const VERSION_TTL_MS = 30_000;

const RETRY_MS = 1000;

/** The shop's version key. The braces make it its own Redis Cluster hash slot tag. */
export const shopVersionKey = (shopId: string): string => `gcrs:shop-version:{${shopId}}`;

/**
 * The shop's lease fence: the Redis time (µs) at which the last lease of rate-limit slots read
 * under the shop's current token ends (rate-limit/lease.ts). Such a lease answers requests
 * from memory, with the token it read, until then; a bump waits for it before answering.
 */
export const shopLeaseFenceKey = (shopId: string): string => `gcrs:shop-lease:{${shopId}}`;

type Common = {
  /**
   * After a commit, before the response: every instance sees a new version from now on.
   * False when Redis did not take it (logged, retried; the old token expires by itself).
   */
  bump(shopId: string): Promise<boolean>;
  close(): void;
};

export type ShopVersions =
  | (Common & { readonly mode: 'off' })
  | (Common & {
      readonly mode: 'local';
      /** The shop's current token. */
      read(shopId: string): string;
    })
  | (Common & {
      readonly mode: 'redis';
      readonly redis: RedisClient;
      /** The version key of the shop, for the rate-limit script. */
      versionRead(shopId: string): VersionRead;
      /** The shop's token read now (seeded when missing); undefined when Redis does not answer. */
      read(shopId: string): Promise<string | undefined>;
      /** Raised whenever bumps may have been missed (connection lost, a bump failed). */
      readonly epoch: number;
    });

/** No shared version: caches that need one stay off. */
export function createNoShopVersions(): ShopVersions {
  return { mode: 'off', bump: async () => true, close: () => {} };
}

/**
 * Versions of a single process (embedded database): bumping is synchronous.
 *
 * @example
 *   const versions = createLocalShopVersions();
 *   const seen = versions.read('shp_1'); await versions.bump('shp_1'); versions.read('shp_1') !== seen;
 */
export function createLocalShopVersions(): ShopVersions {
  const tokens = new Map<string, string>();
  let next = 0;
  const fresh = () => {
    next += 1;
    return String(next);
  };
  return {
    mode: 'local',
    read(shopId) {
      let token = tokens.get(shopId);
      if (token === undefined) {
        token = fresh();
        tokens.set(shopId, token);
      }
      return token;
    },
    bump: async (shopId) => {
      tokens.set(shopId, fresh());
      return true;
    },
    close: () => tokens.clear(),
  };
}

/** KEYS[1] version key; ARGV[1] token to seed with, ARGV[2] its TTL in ms. Returns the token. */
export const READ_VERSION_LUA = `
local v = redis.call('GET', KEYS[1])
if not v then
  v = ARGV[1]
  redis.call('SET', KEYS[1], v, 'PX', ARGV[2])
end
return v
`;

/**
 * KEYS[1] version key, KEYS[2] lease fence; ARGV[1] new token, ARGV[2] its TTL in ms. Sets the
 * token and returns the µs until the leases read under the old one end (0 when none).
 */
export const BUMP_VERSION_LUA = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local fence = tonumber(redis.call('GET', KEYS[2]) or '0')
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
if fence > now then return fence - now end
return 0
`;

/**
 * Versions in Redis, shared by every instance on it.
 *
 * A bump answers only once every lease of rate-limit slots read under the old token has ended
 * (at most rate-limit/lease.ts's LEASE_MS, and only while some key of the shop is that busy):
 * a request served from such a lease carries the old token, so a write answered before a
 * request starts is still seen by it, on every instance.
 *
 * @example
 *   const versions = createRedisShopVersions(redis, logger);
 *   await versions.bump(shop.id); // before answering the write
 */
export function createRedisShopVersions(redis: RedisClient, logger: Logger): ShopVersions {
  let epoch = 0;
  let closed = false;
  const pending = new Map<string, NodeJS.Timeout>();
  // Whatever was bumped while this connection was away went unseen here.
  const lost = () => {
    epoch += 1;
  };
  redis.on('close', lost);

  // Resolves with the ms until the leases read under the old token end.
  const setToken = async (shopId: string): Promise<number> => {
    const keys = [shopVersionKey(shopId), shopLeaseFenceKey(shopId)];
    const left: unknown = await redis.eval(BUMP_VERSION_LUA, 2, ...keys, randomUUID(), String(VERSION_TTL_MS));
    return typeof left === 'number' ? Math.ceil(left / 1000) : 0;
  };

  // A bump that failed is retried until it lands (or the key has expired by itself anyway).
  const retry = (shopId: string, attemptsLeft: number) => {
    if (closed || pending.has(shopId) || attemptsLeft <= 0) return;
    const timer = setTimeout(() => {
      pending.delete(shopId);
      setToken(shopId).catch(() => retry(shopId, attemptsLeft - 1));
    }, RETRY_MS);
    timer.unref();
    pending.set(shopId, timer);
  };

  return {
    mode: 'redis',
    redis,
    get epoch() {
      return epoch;
    },
    versionRead: (shopId) => ({ key: shopVersionKey(shopId), ttlMs: VERSION_TTL_MS, fenceKey: shopLeaseFenceKey(shopId) }),
    async read(shopId) {
      if (redis.status !== 'ready') return undefined;
      try {
        const token: unknown = await redis.eval(READ_VERSION_LUA, 1, shopVersionKey(shopId), randomUUID(), String(VERSION_TTL_MS));
        return typeof token === 'string' ? token : undefined;
      } catch {
        return undefined;
      }
    },
    async bump(shopId) {
      try {
        const leasesLeftMs = await setToken(shopId);
        if (leasesLeftMs > 0) await sleep(leasesLeftMs);
        return true;
      } catch (error) {
        lost();
        logger.warn({ err: error, shopId }, 'shop version bump failed; other instances see the change once Redis answers or within 30 s');
        retry(shopId, Math.ceil(VERSION_TTL_MS / RETRY_MS));
        return false;
      }
    },
    close() {
      closed = true;
      redis.off('close', lost);
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}
