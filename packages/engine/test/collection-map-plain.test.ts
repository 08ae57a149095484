import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as indexed from '../src/evaluate/collection-map.ts';
import * as plain from '../src/evaluate/collection-map-plain.ts';
import type { IdKey } from '../src/ids.ts';
import { idKeyOf } from '../src/ids.ts';

// The storefront build swaps collection-map.ts for collection-map-plain.ts (smaller, no
// indexes): both must give the same answer for every map, name and cart.
const reference = fc.oneof(
  fc.constantFrom('summer', 'Summer', ' summer ', '5', 'gid://shopify/Collection/5', 'gid://shopify/Collection/6', '6', '', ' ', 'winter'),
  fc.string({ maxLength: 4 }),
);
const product = fc.oneof(fc.nat({ max: 6 }), fc.nat({ max: 6 }).map((n) => `gid://shopify/Product/${n}`), fc.constantFrom('x', null, -1, '007'));
const map = fc.oneof(
  fc.dictionary(reference, fc.oneof(fc.array(product, { maxLength: 4 }), fc.constantFrom(null, 'summer', 3, {})), { maxKeys: 5 }),
  fc.constantFrom(undefined, null, [], 'summer', 5),
);
const cart = fc.array(product, { maxLength: 4 }).map((ids) => {
  const quantities = new Map<IdKey, number>();
  for (const id of ids) {
    const key = idKeyOf(id);
    if (key !== undefined) quantities.set(key, 1);
  }
  return quantities;
});

describe('collection-map-plain.ts (the storefront build) agrees with collection-map.ts', () => {
  it('on whether a named collection has a product in the cart, for any map, name and cart, asked once or more', () => {
    fc.assert(
      fc.property(map, reference, cart, fc.integer({ min: 1, max: 3 }), (collections, name, inCart, times) => {
        const normalised = indexed.collectionName(name);
        if (normalised === undefined) return;
        // The indexed map changes path once a map object is opened more than once: ask each way.
        for (let i = 0; i < times; i++) {
          const expected = indexed.collectionHasProductIn(indexed.openCollectionMap(collections), normalised, inCart);
          expect(plain.collectionHasProductIn(plain.openCollectionMap(collections), normalised, inCart)).toBe(expected);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('opens the same values as maps', () => {
    for (const value of [undefined, null, [], 'x', 5, {}, { a: [1] }]) {
      expect(plain.openCollectionMap(value) === undefined).toBe(indexed.openCollectionMap(value) === undefined);
    }
    expect(plain.collectionHasProductIn(plain.openCollectionMap({ 'gid://shopify/Collection/5': [1], '5': [2] }), '#5', new Map([[2, 1]]))).toBe(true);
    expect(plain.collectionHasProductIn(plain.openCollectionMap({ summer: 'x' }), '@summer', new Map())).toBeUndefined();
    expect(plain.collectionHasProductIn(plain.openCollectionMap({ summer: [] }), '@summer', new Map())).toBe(false);
  });
});
