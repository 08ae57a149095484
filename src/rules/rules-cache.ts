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
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { EVERY_KEY } from '../cache/invalidation-bus.ts';
import type { Database } from '../db/database.ts';
import type { ContentCoding } from '../http/accept-encoding.ts';
import { stringifyJson } from '../http/json.ts';
import type { Trigger } from '../http/shop-routes.ts';
import { loadRulesSource } from './load-source.ts';
import { buildRulesPayload } from './payload.ts';
import type { RulesPayloadBody, RulesSource } from './payload.ts';
import type { Segment } from './schedule-window.ts';
import { storefrontExtras } from './storefront-variant.ts';

export const RULES_TOPIC = 'rules';

/** One encoding of the body, ready to write: bytes and their own strong ETag. */
export type RulesRepresentation = { coding: ContentCoding; etag: string; body: Buffer };

/**
 * What a GET /rules response carries: the identity body (`etag`, `body`), the same payload
 * precompressed per content coding, and every ETag of the current payload (`etags`), any of
 * which in If-None-Match means the client's copy is current.
 */
export type RulesResponse = {
  etag: string;
  body: Buffer;
  representations: Record<ContentCoding, RulesRepresentation>;
  etags: readonly string[];
  payload: RulesPayloadBody & { debugAllowed: boolean; collections?: Record<string, string[]>; giftTitles?: Record<string, string> };
};

export type RulesCache = {
  /**
   * The payload for `shop` as `mount` sees it; undefined when the shop no longer exists.
   * `shop.rulesVersion` is the version the caller has seen: nothing older is served.
   */
  get(shop: { id: string; rulesVersion: number }, mount: Trigger): Promise<RulesResponse | undefined>;
  /** Drops the shop's entry here and on every other instance; call after a write commits. */
  invalidate(shopId: string): void;
  /** The version cached for the shop, if any (for tests and diagnostics). */
  cachedVersion(shopId: string): number | undefined;
  close(): void;
};

export type RulesCacheOptions = {
  db: Database;
  bus: InvalidationBus;
  /** The clock schedule windows are checked against; tests inject one. */
  now?: () => Date;
  /** Shops kept; the least recently used entry goes first. */
  maxEntries?: number;
};

type Entry = {
  source: RulesSource;
  payload: RulesPayloadBody;
  segment: Segment;
  responses: Partial<Record<Trigger, RulesResponse>>;
};

/**
 * What each way in adds to the cached payload. SPEC "Rules payload" `debugAllowed`: true for
 * the operator's admin mount, false for API keys; the storefront mount (app proxy and
 * storefront tokens) gets the shop's `storefront.debug` setting and the collection map
 * (storefront-variant.ts). Every variant is cached as bytes in the same entry, so the
 * shoppers' hot path writes bytes like the API's.
 */
function variantExtras(entry: Entry, mount: Trigger): { debugAllowed: boolean; collections?: Record<string, string[]>; giftTitles?: Record<string, string> } {
  if (mount !== 'storefront') return { debugAllowed: mount === 'admin' };
  return storefrontExtras({
    settings: entry.source.shop.settings,
    rules: entry.payload.rules,
    collections: entry.source.collections,
    giftTitles: entry.source.giftTitles,
  });
}

const DEFAULT_MAX_ENTRIES = 1000;

/**
 * A strong validator naming exactly one body: shop, rules version, plan, the end of the
 * schedule segment in effect, and the mount (debugAllowed differs). The shop id keeps a
 * client that switches keys from getting another shop's 304.
 *
 * @example
 *   rulesEtag('shp_1', 7, 'scale', { from: 0, until: Infinity }, 'api'); // '"shp_1-v7-scale-open-api"'
 */
export function rulesEtag(shopId: string, version: number, plan: string, segment: Segment, mount: Trigger): string {
  const boundary = Number.isFinite(segment.until) ? String(segment.until) : 'open';
  return `"${shopId}-v${version}-${plan}-${boundary}-${mount}"`;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Brotli quality 9 packs ~97 KB of rules into ~7 KB in a few ms, once per entry; 11 takes ~20x longer for ~5% less. */
const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } };

/**
 * The body in each content coding, compressed once when the entry is built so a request
 * only writes bytes. RFC 9110 §8.8.3: a strong ETag names one representation, so each
 * coding gets its own tag (`…-gzip`, `…-br`). A coding that would not shrink the body
 * (tiny payloads) falls back to the identity representation.
 *
 * @example
 *   encodeRepresentations('"shp_1-v1-scale-open-api"', body).gzip.etag; // '"shp_1-v1-scale-open-api-gzip"'
 */
export function encodeRepresentations(etag: string, body: Buffer): Record<ContentCoding, RulesRepresentation> {
  return representationsOf(etag, body, gzipSync(body, { level: 9 }), brotliCompressSync(body, BROTLI_OPTIONS));
}

/**
 * encodeRepresentations for large bodies (the merchant admin's ~1.2 MB of assets): the same
 * codings, compressed on libuv's thread pool, so the event loop keeps answering meanwhile.
 *
 * @example
 *   const { br } = await encodeRepresentationsOffThread('"abc"', bundle);
 */
export async function encodeRepresentationsOffThread(etag: string, body: Buffer): Promise<Record<ContentCoding, RulesRepresentation>> {
  const [gzipped, brotli] = await Promise.all([gzipAsync(body, { level: 9 }), brotliAsync(body, BROTLI_OPTIONS)]);
  return representationsOf(etag, body, gzipped, brotli);
}

function representationsOf(etag: string, body: Buffer, gzipped: Buffer, brotli: Buffer): Record<ContentCoding, RulesRepresentation> {
  const identity: RulesRepresentation = { coding: 'identity', etag, body };
  const variant = (coding: 'gzip' | 'br', compressed: Buffer): RulesRepresentation =>
    compressed.length < body.length ? { coding, etag: `${etag.slice(0, -1)}-${coding}"`, body: compressed } : identity;
  return { identity, gzip: variant('gzip', gzipped), br: variant('br', brotli) };
}

/**
 * Builds the cache; it listens on `bus` for other instances' writes.
 *
 * @example
 *   const cache = createRulesCache({ db: ctx.db, bus });
 *   const rules = await cache.get(shop, 'api'); // rules.etag, rules.body
 */
export function createRulesCache(options: RulesCacheOptions): RulesCache {
  const now = options.now ?? (() => new Date());
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<RulesSource | undefined>>();

  const unsubscribe = options.bus.subscribe(RULES_TOPIC, (shopId) => {
    if (shopId === EVERY_KEY) entries.clear();
    else entries.delete(shopId);
  });

  const remember = (shopId: string, entry: Entry) => {
    const current = entries.get(shopId);
    // A slower load of an older snapshot must not replace a newer one.
    if (current && current.source.shop.rulesVersion > entry.source.shop.rulesVersion) return;
    entries.delete(shopId);
    entries.set(shopId, entry);
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
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

  const respond = (entry: Entry, mount: Trigger): RulesResponse => {
    const cached = entry.responses[mount];
    if (cached) return cached;
    const { rules, experiments, ...rest } = entry.payload;
    const { debugAllowed, collections, giftTitles } = variantExtras(entry, mount);
    const payload = {
      rules,
      ...(experiments ? { experiments } : {}),
      debugAllowed,
      ...rest,
      ...(collections ? { collections } : {}),
      ...(giftTitles ? { giftTitles } : {}),
    };
    const { shop } = entry.source;
    const etag = rulesEtag(shop.id, shop.rulesVersion, shop.plan, entry.segment, mount);
    const body = Buffer.from(stringifyJson(payload), 'utf8');
    const representations = encodeRepresentations(etag, body);
    const etags = [...new Set(Object.values(representations).map((r) => r.etag))];
    const response = { etag, body, representations, etags, payload };
    entry.responses[mount] = response;
    return response;
  };

  return {
    async get(shop, mount) {
      const at = now().getTime();
      const cached = entries.get(shop.id);
      const current = cached !== undefined && cached.source.shop.rulesVersion >= shop.rulesVersion;
      if (current && at >= cached.segment.from && at < cached.segment.until) return respond(cached, mount);

      // Same version, new schedule segment: rebuild from the data in hand, no database read.
      const source = current ? cached.source : await load(shop.id, shop.rulesVersion);
      if (source === undefined) return undefined;
      const built = buildRulesPayload(source, at);
      const entry: Entry = { source, payload: built.payload, segment: built.segment, responses: {} };
      remember(shop.id, entry);
      return respond(entry, mount);
    },
    invalidate(shopId) {
      entries.delete(shopId);
      options.bus.publish(RULES_TOPIC, shopId);
    },
    cachedVersion: (shopId) => entries.get(shopId)?.source.shop.rulesVersion,
    close() {
      unsubscribe();
      entries.clear();
    },
  };
}
