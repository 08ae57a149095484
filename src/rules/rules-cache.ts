/**
 * The in-process cache of GET /rules, one entry per shop.
 *
 * Exactness does not depend on invalidation messages, which can arrive late: every request
 * already holds its shop row (authentication loads it), and an entry is served only while
 * its version is at least that row's `rules_version` — bumped inside every write
 * transaction — and the clock is still inside the entry's schedule segment. A write that
 * committed before a request started is therefore always seen by it, on any instance.
 * The invalidation bus (Redis pub/sub or LISTEN/NOTIFY) only evicts stale entries early.
 *
 * Entries are stamped with the version read in the same snapshot as their data
 * (load-source.ts), so an entry never claims a newer version than its content.
 *
 * What an entry holds is built as it is asked for: the payload object (POST /evaluate reads
 * only that), the identity bytes on the first GET /rules of a mount, and a compressed form on
 * the first request that negotiates its coding, compressed on the thread pool, once, whoever
 * else asks meanwhile (representations.ts). The entries are bounded by bytes
 * (RULES_CACHE_MAX_BYTES), not by shops: the least recently used go first.
 */
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { EVERY_KEY } from '../cache/invalidation-bus.ts';
import type { Database } from '../db/database.ts';
import { stringifyJson } from '../http/json.ts';
import type { Trigger } from '../http/shop-routes.ts';
import { loadRulesSource } from './load-source.ts';
import { buildRulesPayload } from './payload.ts';
import type { RulesPayloadBody, RulesSource } from './payload.ts';
import { rulesEtag } from './etag.ts';
import { createCompressor, ON_DEMAND_LEVELS, onDemandRepresentations } from './representations.ts';
import type { CompressedCoding, Compressor, OnDemandRepresentations } from './representations.ts';
import type { Segment } from './schedule-window.ts';
import { mountPayload, pageTranslation } from './mount-view.ts';
import type { RulesPayload } from './mount-view.ts';

export const RULES_TOPIC = 'rules';

export type { RulesPayload } from './mount-view.ts';

/**
 * What a GET /rules response carries: the identity body, the strong ETag of each coding
 * (`tags`), every tag of the current payload (`etags`: any of them in If-None-Match means the
 * client's copy is current) and the body in a coding, compressed on first demand.
 */
export type RulesResponse = { payload: RulesPayload } & OnDemandRepresentations;

/** Counters for tests, the bench and diagnostics. */
export type RulesCacheStats = {
  entries: number;
  /** What the entries are counted at (see `entryWeight`), against `maxBytes`. */
  bytes: number;
  maxBytes: number;
  /** Identity bodies serialized, and compressions started, since the cache was built. */
  bodies: number;
  compressions: Record<CompressedCoding, number>;
};

export type RulesCache = {
  /**
   * GET /rules's answer for `shop` as `mount` sees it; undefined when the shop no longer
   * exists. `shop.rulesVersion` is the version the caller has seen: nothing older is served.
   * `locale`: the storefront page's (`?locale=`), whose rule translations it reads.
   */
  get(shop: { id: string; rulesVersion: number }, mount: Trigger, locale?: string): Promise<RulesResponse | undefined>;
  /** `get`'s answer when it is in hand (a current entry), with no promise to wait for; else undefined. */
  current(shop: { id: string; rulesVersion: number }, mount: Trigger, locale?: string): RulesResponse | undefined;
  /** The same payload as an object only (POST /evaluate): no bytes are built for it. */
  payload(shop: { id: string; rulesVersion: number }, mount: Trigger): Promise<RulesPayload | undefined>;
  /** Drops the shop's entry here and on every other instance; call after a write commits. */
  invalidate(shopId: string): void;
  /** The version cached for the shop, if any (for tests and diagnostics). */
  cachedVersion(shopId: string): number | undefined;
  stats(): RulesCacheStats;
  close(): void;
};

export type RulesCacheOptions = {
  db: Database;
  bus: InvalidationBus;
  /** The clock schedule windows are checked against; tests inject one. */
  now?: () => Date;
  /** RULES_CACHE_MAX_BYTES: the least recently used entries go while the entries weigh more. */
  maxBytes?: number;
  /** Compresses off the event loop; tests inject one they can hold. */
  compress?: Compressor;
};

type View = { payload: RulesPayload; response?: RulesResponse };

type Entry = {
  shopId: string;
  source: RulesSource;
  payload: RulesPayloadBody;
  segment: Segment;
  /** By mount, and `storefront:<translation>` for a storefront page in a language the rules are translated to. */
  views: Partial<Record<string, View>>;
  /** A storefront page's locale → the rules' translation it reads (none: undefined). */
  translations?: Map<string, string | undefined>;
  /** What this entry is counted at; added to the cache's total while `cached`. */
  bytes: number;
  cached: boolean;
};

/** RULES_CACHE_MAX_BYTES's default (README "Configuration"). */
export const DEFAULT_RULES_CACHE_MAX_BYTES = 512 * 1024 * 1024;

/**
 * The objects of an entry (the rows read, the payload, the compiled rules /evaluate keeps) are
 * counted before any bytes exist, so an entry only /evaluate reads weighs something too: per
 * rule about what V8 holds for one, plus the settings and widgets. docs/performance.md "GET
 * /rules for many shops" measured ~23 KB of heap per shop of 10 rules (~0.9 KB of JSON each),
 * the key cache's and limiter's share included; counted here at 29.7 KB. The bytes built later
 * (identity and compressed bodies, outside the heap) are added as they are.
 */
const OBJECT_BYTES_PER_RULE = 2560;
const OBJECT_BYTES_PER_ENTRY = 4096;

/**
 * Builds the cache; it listens on `bus` for other instances' writes.
 *
 * @example
 *   const cache = createRulesCache({ db: ctx.db, bus });
 *   const rules = await cache.get(shop, 'api'); // rules.tags.br, rules.identity.body
 */
export function createRulesCache(options: RulesCacheOptions): RulesCache {
  const now = options.now ?? (() => new Date());
  const maxBytes = options.maxBytes ?? DEFAULT_RULES_CACHE_MAX_BYTES;
  const compress = options.compress ?? createCompressor(ON_DEMAND_LEVELS);
  // Insertion order is recency: a hit moves its entry to the end, eviction takes the first.
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<RulesSource | undefined>>();
  let totalBytes = 0;
  // The entry last moved to the end of `entries` (the most recent).
  let newest: Entry | undefined;
  const counters = { bodies: 0, compressions: { gzip: 0, br: 0 } };

  const drop = (entry: Entry) => {
    if (!entry.cached) return;
    entry.cached = false;
    totalBytes -= entry.bytes;
    if (entries.get(entry.shopId) === entry) entries.delete(entry.shopId);
  };
  const evictOver = () => {
    for (const oldest of entries.values()) {
      if (totalBytes <= maxBytes) return;
      drop(oldest);
    }
  };
  // Bytes built for an entry count while it is cached; one evicted meanwhile keeps them to itself.
  const charge = (entry: Entry, bytes: number) => {
    entry.bytes += bytes;
    if (!entry.cached) return;
    totalBytes += bytes;
    evictOver();
  };

  const unsubscribe = options.bus.subscribe(RULES_TOPIC, (shopId) => {
    if (shopId !== EVERY_KEY) {
      const entry = entries.get(shopId);
      if (entry) drop(entry);
      return;
    }
    for (const entry of entries.values()) entry.cached = false;
    entries.clear();
    totalBytes = 0;
  });

  const remember = (entry: Entry) => {
    const current = entries.get(entry.shopId);
    // A slower load of an older snapshot must not replace a newer one.
    if (current && current.source.shop.rulesVersion > entry.source.shop.rulesVersion) return;
    if (current) drop(current);
    entry.cached = true;
    entries.set(entry.shopId, entry);
    newest = entry;
    totalBytes += entry.bytes;
    evictOver();
  };

  // Concurrent misses of one shop share one database read when it is recent enough.
  const load = async (shopId: string, minVersion: number): Promise<RulesSource | undefined> => {
    const pending = loading.get(shopId);
    if (pending) {
      const shared = await pending;
      if (shared === undefined || shared.shop.rulesVersion >= minVersion) return shared;
    }
    const fresh = loadRulesSource(options.db, shopId, now().getTime());
    loading.set(shopId, fresh);
    try {
      return await fresh;
    } finally {
      if (loading.get(shopId) === fresh) loading.delete(shopId);
    }
  };

  const inSegment = (entry: Entry, at: number) => at >= entry.segment.from && at < entry.segment.until;

  /** The shop's entry when it is current at `at` (then the most recently used), else undefined. */
  const hit = (shop: { id: string; rulesVersion: number }, at: number): Entry | undefined => {
    const cached = entries.get(shop.id);
    if (cached === undefined || cached.source.shop.rulesVersion < shop.rulesVersion || !inSegment(cached, at)) return undefined;
    // A hot shop asks again and again: only a hit on another entry reorders the map.
    if (cached !== newest) {
      entries.delete(shop.id);
      entries.set(shop.id, cached);
      newest = cached;
    }
    return cached;
  };

  const entryFor = async (shop: { id: string; rulesVersion: number }): Promise<Entry | undefined> => {
    const at = now().getTime();
    const found = hit(shop, at);
    if (found !== undefined) return found;
    const cached = entries.get(shop.id);
    const current = cached !== undefined && cached.source.shop.rulesVersion >= shop.rulesVersion;
    // Same version, new schedule segment: rebuild from the data in hand, no database read.
    const source = current ? cached.source : await load(shop.id, shop.rulesVersion);
    if (source === undefined) return undefined;
    // Concurrent misses shared that read: the first to resume built the entry, the rest use it.
    const built = entries.get(shop.id);
    if (built !== undefined && built.source === source && inSegment(built, at)) return built;
    const { payload, segment } = buildRulesPayload(source, at);
    const bytes = OBJECT_BYTES_PER_ENTRY + OBJECT_BYTES_PER_RULE * payload.rules.length;
    const entry: Entry = { shopId: shop.id, source, payload, segment, views: {}, bytes, cached: false };
    remember(entry);
    return entry;
  };

  const viewOf = (entry: Entry, mount: Trigger, translation?: string): View => {
    const key = translation === undefined ? mount : `${mount}:${translation}`;
    const cached = entry.views[key];
    if (cached) return cached;
    const payload = mountPayload(entry.payload, entry.source, mount, translation);
    const view: View = { payload };
    entry.views[key] = view;
    return view;
  };

  const respond = (entry: Entry, mount: Trigger, locale?: string): RulesResponse => {
    const translation = pageTranslation((entry.translations ??= new Map()), entry.payload.rules, mount, locale);
    const view = viewOf(entry, mount, translation);
    if (view.response) return view.response;
    const { shop } = entry.source;
    const etag = rulesEtag(shop.id, shop.rulesVersion, shop.plan, entry.segment, mount, translation);
    const body = Buffer.from(stringifyJson(view.payload), 'utf8');
    counters.bodies += 1;
    charge(entry, body.length);
    const representations = onDemandRepresentations(etag, body, {
      compress: (coding, bytes) => {
        counters.compressions[coding] += 1;
        return compress(coding, bytes);
      },
      compressed: (bytes) => charge(entry, bytes),
    });
    const response: RulesResponse = { payload: view.payload, ...representations };
    view.response = response;
    return response;
  };

  return {
    current(shop, mount, locale) {
      const entry = hit(shop, now().getTime());
      return entry === undefined ? undefined : respond(entry, mount, locale);
    },
    async get(shop, mount, locale) {
      const entry = await entryFor(shop);
      return entry === undefined ? undefined : respond(entry, mount, locale);
    },
    async payload(shop, mount) {
      const entry = await entryFor(shop);
      return entry === undefined ? undefined : viewOf(entry, mount).payload;
    },
    invalidate(shopId) {
      const entry = entries.get(shopId);
      if (entry) drop(entry);
      options.bus.publish(RULES_TOPIC, shopId);
    },
    cachedVersion: (shopId) => entries.get(shopId)?.source.shop.rulesVersion,
    stats: () => ({ entries: entries.size, bytes: totalBytes, maxBytes, bodies: counters.bodies, compressions: { ...counters.compressions } }),
    close() {
      unsubscribe();
      for (const entry of entries.values()) entry.cached = false;
      entries.clear();
      totalBytes = 0;
    },
  };
}
