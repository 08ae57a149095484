/**
 * POST /evaluate keeps each shop's last collections map (src/evaluate/collections-memo.ts): a
 * body whose map equals it by value is evaluated with that object, unparsed. Held here: the
 * object is only ever reused for an equal map (a list that changed, keys in another order, an
 * id as a number instead of a string all count as new), never across shops, and the answers
 * are those of a fresh parse.
 */
import { sameCollections } from '@gcrs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollectionsMemo } from '../../src/evaluate/collections-memo.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluationOf, line, liveCampaign, product, rule } from './helpers.ts';

describe('sameCollections', () => {
  const accepted = { summer: [product(1), product(2)], '42': [7] };
  it('is true only for the same keys in the same order with the same ids', () => {
    expect(sameCollections(accepted, { summer: [product(1), product(2)], '42': [7] })).toBe(true);
    // Keys in another order (integer-like keys always come first in JavaScript, so letters here).
    expect(sameCollections({ a: [1], b: [2] }, { b: [2], a: [1] })).toBe(false);
    expect(sameCollections(accepted, { summer: [product(2), product(1)], '42': [7] })).toBe(false);
    expect(sameCollections(accepted, { summer: [product(1), product(3)], '42': [7] })).toBe(false);
    expect(sameCollections(accepted, { summer: [product(1)], '42': [7] })).toBe(false);
    expect(sameCollections(accepted, { summer: [product(1), product(2)], '42': ['7'] })).toBe(false);
    expect(sameCollections(accepted, { summer: [product(1), product(2)] })).toBe(false);
    expect(sameCollections(accepted, { summer: [product(1), product(2)], '42': [7], winter: [] })).toBe(false);
    expect(sameCollections(accepted, [])).toBe(false);
    expect(sameCollections(accepted, null)).toBe(false);
  });
});

describe('createCollectionsMemo', () => {
  it('hands back the remembered object for an equal map of the same shop only, and keeps a bounded number of shops', () => {
    const memo = createCollectionsMemo(2);
    const map = { summer: [product(1)] };
    memo.remember('shp_a', map);
    expect(memo.known('shp_a')({ summer: [product(1)] })).toBe(map);
    expect(memo.known('shp_a')({ summer: [product(2)] })).toBeUndefined();
    expect(memo.known('shp_b')({ summer: [product(1)] })).toBeUndefined();
    memo.remember('shp_b', { summer: [] });
    memo.remember('shp_c', { summer: [] });
    // shp_a was the least recently remembered of three with room for two.
    expect(memo.known('shp_a')({ summer: [product(1)] })).toBeUndefined();
  });
});

describe('POST /evaluate with a repeated collections map', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const summer = (body: { results: Array<{ matched: boolean }> }) => body.results[0]?.matched;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop('scale');
    other = await t.createShop('scale');
    for (const s of [shop, other]) await importCampaigns(t, s, [liveCampaign('Summer', [rule('Summer', { type: 'line.in_collection', value: 'summer' })])]);
  });
  afterAll(() => t.close());

  it('answers each body by its own map, the same as a fresh parse, however often a map repeats', async () => {
    const cart = (collections: Record<string, unknown>) => cartOf([line()], { collections });
    const inSummer = { summer: [product(1), product(5)] };
    const notInSummer = { summer: [product(2), product(5)] };
    for (let round = 0; round < 3; round += 1) {
      expect(summer(await evaluationOf(t, shop, cart(inSummer)))).toBe(true);
      expect(summer(await evaluationOf(t, shop, cart(inSummer)))).toBe(true);
      // Same keys and lengths, one id changed: a new map.
      expect(summer(await evaluationOf(t, shop, cart(notInSummer)))).toBe(false);
      expect(summer(await evaluationOf(t, shop, cart(notInSummer)))).toBe(false);
    }
    // The numeric form of the same product: a different map by value, the same meaning.
    expect(summer(await evaluationOf(t, shop, cart({ summer: [1, 5] })))).toBe(true);
    expect(summer(await evaluationOf(t, shop, cart({ summer: [2, 5] })))).toBe(false);
    // A map with an extra collection the rule does not name.
    expect(summer(await evaluationOf(t, shop, cart({ ...notInSummer, winter: [product(1)] })))).toBe(false);
  });

  it('never lends one shop\'s map to another', async () => {
    const cart = (ids: string[]) => cartOf([line()], { collections: { summer: ids } });
    expect(summer(await evaluationOf(t, shop, cart([product(1)])))).toBe(true);
    expect(summer(await evaluationOf(t, other, cart([product(3)])))).toBe(false);
    expect(summer(await evaluationOf(t, shop, cart([product(1)])))).toBe(true);
    expect(summer(await evaluationOf(t, other, cart([product(3)])))).toBe(false);
    // And through the admin mount of the same shop: the same answers.
    expect(summer(await evaluationOf(t, other, cart([product(1)]), 'admin'))).toBe(true);
    expect(summer(await evaluationOf(t, other, cart([product(3)]), 'admin'))).toBe(false);
  });
});
