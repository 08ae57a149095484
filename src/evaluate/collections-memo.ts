/**
 * The last `collections` map each shop's storefront sent to POST /evaluate, kept so that the
 * next body carrying the same map by value gets that very object back (engine
 * `acceptEvaluationContext`'s `known`).
 *
 * Why: a storefront sends the map GET /rules gave it (CONTRACT "Storefront": every collection
 * the live rules name, with its product ids), the same on every request until the rules change.
 * Parsed afresh, each request's map cost a walk checking every id, and the engine then scanned
 * its lists rule by rule; the engine keeps what it derives from a map object it has seen before
 * (product sets, engine `collection-map.ts`). Comparing by value costs one pass with no parsing
 * of ids, and the object handed back is what the walk would have built from that body: an
 * exact shortcut. Maps are never changed once accepted (the engine treats them as immutable).
 */
import { sameCollections } from '@gcrs/engine';
import type { EvaluationContext, KnownCollections } from '@gcrs/engine';

type Collections = NonNullable<EvaluationContext['collections']>;

/** Shops whose last map is kept (the least recently seen goes first). */
const DEFAULT_MAX_SHOPS = 1000;

export type CollectionsMemo = {
  /** For acceptEvaluationContext: the shop's last map when `input` equals it, else undefined. */
  known(shopId: string): KnownCollections;
  /** Keeps `collections`, as accepted for the shop, for its next requests. */
  remember(shopId: string, collections: Collections): void;
};

/**
 * @example
 *   const memo = createCollectionsMemo();
 *   const context = acceptEvaluationContext(body, memo.known(shop.id));
 *   if (context?.collections) memo.remember(shop.id, context.collections);
 */
export function createCollectionsMemo(maxShops = DEFAULT_MAX_SHOPS): CollectionsMemo {
  const last = new Map<string, Collections>();
  return {
    known: (shopId) => (input) => {
      const accepted = last.get(shopId);
      return accepted !== undefined && sameCollections(accepted, input) ? accepted : undefined;
    },
    remember(shopId, collections) {
      if (last.get(shopId) === collections) return;
      last.delete(shopId);
      if (last.size >= maxShops) {
        const oldest = last.keys().next();
        if (oldest.done !== true) last.delete(oldest.value);
      }
      last.set(shopId, collections);
    },
  };
}
