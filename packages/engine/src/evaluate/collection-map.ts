import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';

/**
 * The context's `collections` map (handle, numeric id or gid -> product ids), read lazily.
 * Only the keys are indexed up front (a few per shop); product lists are scanned when a
 * rule asks, stopping at the first product in the cart. A map object seen with more than
 * one context (a storefront reusing its map) also gets its product lists turned into sets,
 * once. Maps are treated as immutable, like condition trees.
 */
export type CollectionMap = {
  raw: Readonly<Record<string, unknown>>;
  entry: MapEntry;
};

type MapEntry = {
  /** Normalised key ('#<id>' or '@<lowercased handle>') -> the raw keys naming it. */
  keysByName: Map<string, string[]>;
  sets: Map<string, ReadonlySet<IdKey>>;
  contexts: number;
};

const entries = new WeakMap<object, MapEntry>();

/**
 * The normalised name of a collection reference: its numeric id, else its handle.
 *
 * @example collectionName('gid://shopify/Collection/5') // '#5'
 */
export function collectionName(reference: string): string | undefined {
  const trimmed = reference.trim();
  if (trimmed === '') return undefined;
  const id = idKeyOf(trimmed);
  return id === undefined ? `@${trimmed.toLowerCase()}` : `#${id}`;
}

/**
 * Wraps a context's collection map (or nothing) for lazy lookups.
 *
 * @example openCollectionMap({ summer: ['gid://shopify/Product/1'] })
 */
export function openCollectionMap(collections: unknown): CollectionMap | undefined {
  if (typeof collections !== 'object' || collections === null || Array.isArray(collections)) return undefined;
  let entry = entries.get(collections);
  if (entry === undefined) {
    const keysByName = new Map<string, string[]>();
    for (const key of Object.keys(collections)) {
      const name = collectionName(key);
      if (name === undefined) continue;
      const keys = keysByName.get(name);
      if (keys === undefined) keysByName.set(name, [key]);
      else keys.push(key);
    }
    entry = { keysByName, sets: new Map(), contexts: 0 };
    entries.set(collections, entry);
  }
  entry.contexts++;
  return { raw: collections as Readonly<Record<string, unknown>>, entry };
}

/**
 * Whether any product of the named collection is in the cart; `undefined` when the map
 * has no entry for it (SPEC: then the `_collections` line property decides). Keys naming
 * one collection (its gid and its numeric id) count together.
 *
 * @example collectionHasProductIn(ctx.collections, '@summer', ctx.productQuantities) // true | false | undefined
 */
export function collectionHasProductIn(
  map: CollectionMap | undefined,
  name: string,
  inCart: ReadonlyMap<IdKey, number>,
): boolean | undefined {
  const keys = map?.entry.keysByName.get(name);
  if (map === undefined || keys === undefined) return undefined;
  let listed = false;
  for (const key of keys) {
    const products = map.raw[key];
    if (!Array.isArray(products)) continue;
    listed = true;
    if (map.entry.contexts > 1 ? anyInSet(productSet(map.entry, key, products), inCart) : anyInList(products, inCart)) {
      return true;
    }
  }
  return listed ? false : undefined;
}

function anyInList(products: readonly unknown[], inCart: ReadonlyMap<IdKey, number>): boolean {
  for (const product of products) {
    const id = idKeyOf(product);
    if (id !== undefined && inCart.has(id)) return true;
  }
  return false;
}

// Walks whichever side is smaller: the collection's products or the cart's.
function anyInSet(products: ReadonlySet<IdKey>, inCart: ReadonlyMap<IdKey, number>): boolean {
  if (products.size < inCart.size) {
    for (const product of products) if (inCart.has(product)) return true;
    return false;
  }
  for (const product of inCart.keys()) if (products.has(product)) return true;
  return false;
}

function productSet(entry: MapEntry, key: string, products: readonly unknown[]): ReadonlySet<IdKey> {
  let set = entry.sets.get(key);
  if (set === undefined) {
    const ids = new Set<IdKey>();
    for (const product of products) {
      const id = idKeyOf(product);
      if (id !== undefined) ids.add(id);
    }
    set = ids;
    entry.sets.set(key, set);
  }
  return set;
}
