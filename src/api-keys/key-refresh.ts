/**
 * Renews the shop version tokens of the key cache's busy entries before they expire, off the
 * requests' path (docs/rules-payload.md "Authentication from memory").
 *
 * Why: a shop's token lives VERSION_TTL_MS (30 s) in Redis and reads do not extend it; that is
 * the bound on a bump that never reached Redis. When it expired, the next request of each of
 * the shop's cached keys read the database on its own path: at 10,000 shops one request in ten.
 *
 * Once a second, for the entries served from memory since they were stamped whose token
 * expires within KEY_REFRESH_LEAD_MS, this instance reads the keys again in bulk
 * (verifyApiKeys, one query per KEYS_PER_READ) and then, per shop, swaps the token for its
 * successor only if Redis still holds the token the entries carry (RENEW_VERSION_LUA, a
 * compare-and-set; all shops of a read in one call on one Redis, one call per shop on a
 * cluster: each call's key is the shop's hash-tagged version key). An entry then carries the
 * successor and the rows just read.
 *
 * Exactness, as for a request's own read (key-cache.ts): the token was in Redis when the entry
 * was stamped, before its earlier read; a bump sets a fresh random token, so if the swap finds
 * the carried token (or its successor: below) no bump happened since, and the rows read
 * before the swap are at least as new as every write whose bump came before it. A bump after
 * the swap replaces the successor, which the entry then no longer matches. A lease of limiter
 * slots that read the carried token is as good as the successor (no write lies between them,
 * and a bump still waits for every lease), so the entry accepts either.
 *
 * Several instances: the successor is derived from the token (`<token>.1`, `.2`, …), not
 * random, so an instance that finds the successor already set by another one after its own read
 * takes it over instead of failing (still no bump since its stamp: a bump breaks the chain for
 * good).
 *
 * The bound on a lost bump is kept: a renewed token lives at most VERSION_TTL_MS from when the
 * read of the rows it vouches for began. The swap sets (or, taking over, shortens to) that
 * life less the time already spent and REPLY_SLACK_MS; a reply later than the slack is not
 * taken (the entries keep the old token and go to the database on their next request). So
 * rows read before a write whose bump was lost are served at most 30 s after that write, as
 * before. An entry not served from memory since its stamp is not renewed: idle keys expire as
 * before.
 */
import { createHash } from 'node:crypto';
import { VERSION_TTL_MS } from '../cache/shop-versions.ts';
import type { ShopVersions } from '../cache/shop-versions.ts';
import type { Queryable } from '../db/database.ts';
import type { VersionRead } from '../rate-limit/limiter.ts';
import { runScript } from '../rate-limit/redis-batch.ts';
import { isCluster } from '../redis/connection.ts';
import { verifyApiKeys } from './store.ts';
import type { VerifiedKey } from './store.ts';

/** How often an instance looks for tokens to renew. */
export const KEY_REFRESH_INTERVAL_MS = 1000;
/** A token expiring within this is renewed (several passes' margin for a slow read). */
export const KEY_REFRESH_LEAD_MS = 5000;
/** Taken off a renewed token's life for the swap's time in flight; a slower reply is not taken. */
export const REPLY_SLACK_MS = 1000;
/** Keys read in one query (and shops swapped in one call on one Redis). */
const KEYS_PER_READ = 500;
/** Keys renewed in one pass at most; the rest wait for the next (the request path still serves them). */
const KEYS_PER_PASS = 5000;
/** A token with less life than this left after the read is not worth a swap. */
const MIN_TTL_MS = 5000;

/** An entry of the key cache (key-cache.ts), keyed there by the full key text. */
export type CachedKey = {
  verified: VerifiedKey;
  /** The shop the key text names, and where its version lives in Redis. */
  shopId: string;
  versionRead: VersionRead | undefined;
  /** The shop's version token the entry is stamped with. */
  version: string;
  /** The token `version` was renewed from: a limiter lease that read it may still answer. */
  renewedFrom: string | undefined;
  epoch: number;
  /**
   * When (performance.now()) the token is taken to expire: read-time + VERSION_TTL_MS for a
   * token first seen on a request (it may expire sooner, then the swap finds it gone), the
   * swap's send time + the life it set for a renewed one (it expires a little later).
   */
  expiresAt: number;
  /** Served from memory since it was stamped: only such entries are renewed. */
  used: boolean;
};

/** Counters for tests and diagnostics; renewals are counted here, never inferred from timing. */
export type KeyRefreshStats = {
  /** Passes that found keys to renew. */
  passes: number;
  /** Keys read again from the database. */
  reads: number;
  /** Shop tokens this instance swapped for their successor. */
  renewals: number;
  /** Successors another instance had set, taken over after this instance's own read. */
  adoptions: number;
  /** Tokens Redis no longer held (bumped, expired, lost): left to the request path. */
  refused: number;
  /** Entries dropped because their key no longer verified (revoked, deleted). */
  dropped: number;
  /** Reads or swaps that failed, or replies too late to take. */
  failures: number;
};

export type KeyRefresher = {
  /**
   * One pass now (after any pass under way): renews the used entries whose token expires
   * within `leadMs` (KEY_REFRESH_LEAD_MS). Never throws; failures are counted.
   */
  refresh(options?: { leadMs?: number }): Promise<void>;
  stats(): KeyRefreshStats;
  close(): void;
};

/**
 * KEYS[i] a shop's version key; ARGV[3i-2] the token the entries carry, ARGV[3i-1] its
 * successor, ARGV[3i] the most life (ms) the successor may have. Per key, returns a pair:
 * 1 and the life set when the carried token was swapped; 2 and the life left when the
 * successor was already there (shortened to at most ARGV[3i]); 0, 0 otherwise.
 */
export const RENEW_VERSION_LUA = `
local out = {}
for i = 1, #KEYS do
  local carried, successor, ttl = ARGV[3 * i - 2], ARGV[3 * i - 1], tonumber(ARGV[3 * i])
  local v = redis.call('GET', KEYS[i])
  if v == carried then
    redis.call('SET', KEYS[i], successor, 'PX', ttl)
    out[#out + 1] = 1
    out[#out + 1] = ttl
  elseif v == successor then
    local left = redis.call('PTTL', KEYS[i])
    if left < 0 or left > ttl then
      redis.call('PEXPIRE', KEYS[i], ttl)
      left = ttl
    end
    out[#out + 1] = 2
    out[#out + 1] = left
  else
    out[#out + 1] = 0
    out[#out + 1] = 0
  end
end
return out
`;

const RENEW_VERSION_SHA = createHash('sha1').update(RENEW_VERSION_LUA).digest('hex');

/**
 * The token a renewal of `token` sets: the same on every instance, never one a bump sets
 * (those are UUIDs, without a dot).
 *
 * @example
 *   successorOf('0b6c…'); // '0b6c….1'
 *   successorOf('0b6c….1'); // '0b6c….2'
 */
export function successorOf(token: string): string {
  const dot = token.lastIndexOf('.');
  const count = dot === -1 ? Number.NaN : Number(token.slice(dot + 1));
  return Number.isSafeInteger(count) && count > 0 ? `${token.slice(0, dot)}.${count + 1}` : `${token}.1`;
}

type Group = { versionKey: string; carried: string; successor: string; members: Array<[string, CachedKey]> };

type RedisShopVersions = Extract<ShopVersions, { mode: 'redis' }>;

/**
 * Starts the renewals of `entries` (the key cache's map) over `versions`.
 *
 * @example
 *   const refresher = createKeyRefresher({ db, versions, entries });
 *   await refresher.refresh({ leadMs: VERSION_TTL_MS }); // every used entry, now (tests)
 */
export function createKeyRefresher(options: {
  db: Queryable;
  versions: RedisShopVersions;
  entries: Map<string, CachedKey>;
  intervalMs?: number;
  leadMs?: number;
}): KeyRefresher {
  const { db, versions, entries } = options;
  const stats: KeyRefreshStats = { passes: 0, reads: 0, renewals: 0, adoptions: 0, refused: 0, dropped: 0, failures: 0 };
  let closed = false;
  let running: Promise<void> | undefined;

  // The carried tokens' swaps: one call on one Redis, one per shop on a cluster.
  const swap = async (groups: readonly Group[], ttl: number): Promise<number[]> => {
    const redis = versions.redis;
    const args = (group: Group) => [group.carried, group.successor, String(ttl)];
    const replies = isCluster(redis)
      ? await Promise.all(groups.map((group) => runScript(redis, RENEW_VERSION_LUA, RENEW_VERSION_SHA, [group.versionKey], args(group))))
      : [await runScript(redis, RENEW_VERSION_LUA, RENEW_VERSION_SHA, groups.map((group) => group.versionKey), groups.flatMap(args))];
    const flat = replies.flatMap((reply) => (Array.isArray(reply) ? (reply as unknown[]) : []));
    if (flat.length !== groups.length * 2 || !flat.every((value) => typeof value === 'number')) {
      throw new Error(`unexpected reply from the version renewal script: ${JSON.stringify(replies)}`);
    }
    return flat as number[];
  };

  const renew = async (due: Array<[string, CachedKey]>, epoch: number): Promise<void> => {
    const readAt = performance.now();
    const live = await verifyApiKeys(db, due.map(([key]) => key));
    stats.reads += due.length;
    const groups = new Map<string, Group>();
    for (const [key, entry] of due) {
      const id = `${entry.shopId} ${entry.version}`;
      let group = groups.get(id);
      if (group === undefined) {
        group = { versionKey: versions.versionRead(entry.shopId).key, carried: entry.version, successor: successorOf(entry.version), members: [] };
        groups.set(id, group);
      }
      group.members.push([key, entry]);
    }
    const list = [...groups.values()];
    const sentAt = performance.now();
    // The successor's life ends VERSION_TTL_MS after the read began, at the latest.
    const ttl = Math.floor(VERSION_TTL_MS - (sentAt - readAt) - REPLY_SLACK_MS);
    if (ttl < MIN_TTL_MS) {
      stats.failures += 1;
      return;
    }
    const replies = await swap(list, ttl);
    if (performance.now() - sentAt > REPLY_SLACK_MS || versions.epoch !== epoch) {
      stats.failures += 1;
      return;
    }
    list.forEach((group, i) => {
      const status = replies[2 * i];
      const left = replies[2 * i + 1] ?? 0;
      if ((status !== 1 && status !== 2) || left <= 0) {
        stats.refused += 1;
        return;
      }
      if (status === 1) stats.renewals += 1;
      else stats.adoptions += 1;
      for (const [key, entry] of group.members) {
        // An entry a request replaced meanwhile is newer than this pass's.
        if (entries.get(key) !== entry) continue;
        const verified = live.get(key);
        if (verified === undefined) {
          entries.delete(key);
          stats.dropped += 1;
          continue;
        }
        entries.set(key, { ...entry, verified, version: group.successor, renewedFrom: group.carried, expiresAt: sentAt + left, used: false });
      }
    });
  };

  const pass = async (leadMs: number): Promise<void> => {
    const epoch = versions.epoch;
    if (versions.redis.status !== 'ready') return;
    const now = performance.now();
    // A token is due when one of its entries is; every used entry carrying it goes with it (a
    // shop's keys stamped later take its expiry for later than it is, and one not in the swap
    // would miss at its next request).
    const dueTokens = new Set<string>();
    for (const entry of entries.values()) {
      if (entry.used && entry.epoch === epoch && entry.expiresAt > now && entry.expiresAt - now <= leadMs) dueTokens.add(entry.version);
    }
    if (dueTokens.size === 0) return;
    const due: Array<[string, CachedKey]> = [];
    for (const [key, entry] of entries) {
      if (entry.used && entry.epoch === epoch && dueTokens.has(entry.version)) {
        due.push([key, entry]);
        if (due.length >= KEYS_PER_PASS) break;
      }
    }
    if (due.length === 0) return;
    stats.passes += 1;
    for (let i = 0; i < due.length && !closed; i += KEYS_PER_READ) {
      try {
        await renew(due.slice(i, i + KEYS_PER_READ), epoch);
      } catch {
        // The database or Redis failed: those entries expire and are read on their next request.
        stats.failures += 1;
      }
    }
  };

  const refresh = async (leadMs: number): Promise<void> => {
    while (running !== undefined) await running;
    if (closed) return;
    running = pass(leadMs).finally(() => {
      running = undefined;
    });
    await running;
  };

  const timer = setInterval(() => {
    if (running === undefined) void refresh(options.leadMs ?? KEY_REFRESH_LEAD_MS);
  }, options.intervalMs ?? KEY_REFRESH_INTERVAL_MS);
  timer.unref();

  return {
    refresh: (refreshOptions) => refresh(refreshOptions?.leadMs ?? options.leadMs ?? KEY_REFRESH_LEAD_MS),
    stats: () => ({ ...stats }),
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
