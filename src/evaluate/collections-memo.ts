/**
 * The last `collections` map each shop's storefront sent to POST /evaluate, kept so that the
 * next body carrying the same map gets that very object back: unparsed when the body carries
 * it as the same text ({@link CollectionsMemo.parse}), else unwalked when it is equal by value
 * (engine `acceptEvaluationContext`'s `known`).
 *
 * Why: a storefront sends the map GET /rules gave it (CONTRACT "Storefront": every collection
 * the live rules name, with its product ids), the same on every request until the rules change.
 * Parsed afresh, each request's map cost a JSON parse of most of the body (~28 KB of its ~29 KB
 * in bench:evaluate's small cart) and a walk checking every id, and the engine then scanned
 * its lists rule by rule; the engine keeps what it derives from a map object it has seen before
 * (product sets, engine `collection-map.ts`). The object handed back is what the parse and the
 * walk would have built from that body: an exact shortcut. Maps are never changed once
 * accepted (the engine treats them as immutable).
 */
import { sameCollections } from '@gcrs/engine';
import type { EvaluationContext, KnownCollections } from '@gcrs/engine';

type Collections = NonNullable<EvaluationContext['collections']>;

/** Shops whose last map is kept (the least recently seen goes first). */
const DEFAULT_MAX_SHOPS = 1000;

const KEY = '"collections":';
/**
 * What stands in for the map's text while the rest of the body is parsed: an object whose one
 * key is U+0000. A body without a backslash cannot spell that key (JSON strings refuse a raw
 * control character, and escapes start with a backslash), so finding it at the top level's
 * `collections` after the parse proves the replaced text was that value.
 */
const STAND_IN = '{"\\u0000":0}';

function isStandIn(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '\u0000' && (value as Record<string, unknown>)['\u0000'] === 0;
}

export type CollectionsMemo = {
  /**
   * JSON.parse of a body: the same value, except that when the body carries the shop's last
   * map as the very text it was remembered as (JSON.stringify's), that text is not parsed and
   * the value's `collections` is the remembered object.
   */
  parse(shopId: string, text: string): unknown;
  /** For acceptEvaluationContext: the shop's last map when `input` is it or equals it, else undefined. */
  known(shopId: string): KnownCollections;
  /** Keeps `collections`, as accepted for the shop, for its next requests. */
  remember(shopId: string, collections: Collections): void;
};

/**
 * @example
 *   const memo = createCollectionsMemo();
 *   const context = acceptEvaluationContext(memo.parse(shop.id, text), memo.known(shop.id));
 *   if (context?.collections) memo.remember(shop.id, context.collections);
 */
export function createCollectionsMemo(maxShops = DEFAULT_MAX_SHOPS): CollectionsMemo {
  const last = new Map<string, { map: Collections; text: string }>();
  return {
    parse(shopId, text) {
      const remembered = last.get(shopId);
      if (remembered !== undefined && !text.includes('\\')) {
        const at = text.indexOf(KEY);
        const start = at + KEY.length;
        if (at >= 0 && text.startsWith(remembered.text, start)) {
          // The first `"collections":` followed by the map's text: parse the rest around a stand-in.
          const spliced = `${text.slice(0, start)}${STAND_IN}${text.slice(start + remembered.text.length)}`;
          let value: unknown;
          try {
            value = JSON.parse(spliced);
          } catch {
            value = undefined;
          }
          if (typeof value === 'object' && value !== null && Object.hasOwn(value, 'collections') && isStandIn((value as { collections: unknown }).collections)) {
            (value as { collections: unknown }).collections = remembered.map;
            return value;
          }
        }
      }
      return JSON.parse(text) as unknown;
    },
    known: (shopId) => (input) => {
      const accepted = last.get(shopId)?.map;
      return accepted !== undefined && (accepted === input || sameCollections(accepted, input)) ? accepted : undefined;
    },
    remember(shopId, collections) {
      if (last.get(shopId)?.map === collections) return;
      last.delete(shopId);
      if (last.size >= maxShops) {
        const oldest = last.keys().next();
        if (oldest.done !== true) last.delete(oldest.value);
      }
      // The text a storefront's JSON.stringify sends it as: ids are strings and safe integers.
      last.set(shopId, { map: collections, text: JSON.stringify(collections) });
    },
  };
}
