/**
 * collection-map.ts for the storefront bundle (packages/storefront/scripts/build-script.ts): the
 * same exports and the same answers, without the per-map index of keys and the product sets a
 * server builds for maps it sees again and again. A page has one map with a few collections, and
 * each pass asks each collection once (the prepared context keeps the answer), so a plain walk
 * of the map costs nothing there and saves the first load the bytes. Held to collection-map.ts
 * by test/collection-map-plain.test.ts.
 */
import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';
import { collectionName } from './collection-map.ts';

export { collectionName };

/** The context's `collections` map, as given (see collection-map.ts's `CollectionMap`). */
export type CollectionMap = Readonly<Record<string, unknown>>;

/**
 * The map when it is one (an object, not an array), else `undefined`.
 *
 * @example openCollectionMap({ summer: ['gid://shopify/Product/1'] })
 */
export function openCollectionMap(collections: unknown): CollectionMap | undefined {
  return typeof collections !== 'object' || collections === null || Array.isArray(collections) ? undefined : (collections as CollectionMap);
}

/**
 * Whether any product of the named collection is in the cart; `undefined` when no key of the map
 * names it with a list (then the `_collections` line property decides). Keys naming one
 * collection (its gid and its numeric id) count together.
 *
 * @example collectionHasProductIn(ctx.collections, '@summer', ctx.productQuantities) // true | false | undefined
 */
export function collectionHasProductIn(map: CollectionMap | undefined, name: string, inCart: ReadonlyMap<IdKey, number>): boolean | undefined {
  let listed: boolean | undefined;
  for (const key of Object.keys(map ?? {})) {
    const products = map?.[key];
    if (!Array.isArray(products) || collectionName(key) !== name) continue;
    listed = false;
    for (const product of products) {
      const id = idKeyOf(product);
      if (id !== undefined && inCart.has(id)) return true;
    }
  }
  return listed;
}
