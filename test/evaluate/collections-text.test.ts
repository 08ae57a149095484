/**
 * POST /evaluate's parse of a body that carries the shop's last collections map as the same
 * text (src/evaluate/collections-memo.ts `parse`): the map's text is not parsed, the rest is.
 * Held here: whatever the body, the value is JSON.parse's (keys in the same order), the
 * remembered object is handed back only where JSON.parse would have built an equal map at the
 * top level's `collections`, and only to the shop that sent it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCollectionsMemo } from '../../src/evaluate/collections-memo.ts';
import { product } from './helpers.ts';

const map = { summer: [product(1), product(2)], '42': [7, 8], 'é x': [] as string[] };
const mapText = JSON.stringify(map);

/** A memo that holds `map` for shop `shp_a`. */
function memoWithMap() {
  const memo = createCollectionsMemo();
  memo.remember('shp_a', map);
  return memo;
}

/** Throws unless `memo.parse` gives JSON.parse's value for `text`, or both throw. */
function expectSameAsJsonParse(memo: ReturnType<typeof createCollectionsMemo>, shopId: string, text: string): unknown {
  let expected: unknown;
  try {
    expected = JSON.parse(text);
  } catch {
    expect(() => memo.parse(shopId, text)).toThrow(SyntaxError);
    return undefined;
  }
  const value = memo.parse(shopId, text);
  // Stringified, so key order counts too.
  expect(JSON.stringify(value)).toBe(JSON.stringify(expected));
  return value;
}

describe('the collections memo\'s parse', () => {
  it('hands back the remembered map for a body carrying its text at the top level', () => {
    const memo = memoWithMap();
    const text = `{"cart":{"currency":"USD","lines":[]},"collections":${mapText},"visitorId":"v"}`;
    const value = expectSameAsJsonParse(memo, 'shp_a', text) as { collections: unknown };
    expect(value.collections).toBe(map);
    // Another shop never gets it, even for the same bytes.
    expect((expectSameAsJsonParse(memo, 'shp_b', text) as { collections: unknown }).collections).not.toBe(map);
  });

  it.each([
    ['the map nested in the cart, none at the top', `{"cart":{"currency":"USD","lines":[],"collections":${mapText}}}`],
    ['nested first, another map at the top', `{"cart":{"collections":${mapText}},"collections":{"summer":[]}}`],
    ['nested first, the same map at the top', `{"cart":{"collections":${mapText}},"collections":${mapText}}`],
    ['at the top, then a second top-level key that wins', `{"collections":${mapText},"collections":{"summer":[]}}`],
    ['the stand-in itself, escaped, at the top', `{"cart":{"collections":${mapText}},"collections":{"\\u0000":0}}`],
    ['the map followed by more ids (not a value of its own)', `{"collections":${mapText.slice(0, -1)},"x":[]}}`],
    ['a top-level array', `[{"collections":${mapText}}]`],
    ['inside a string', `{"visitorId":"\\"collections\\":${mapText.replaceAll('"', '\\"')}"}`],
    ['a backslash elsewhere', `{"visitorId":"a\\\\b","collections":${mapText}}`],
    ['broken after the map', `{"collections":${mapText},}`],
    ['with spaces', `{"collections": ${mapText}}`],
    ['a __proto__ key beside it', `{"__proto__":{"collections":1},"collections":${mapText}}`],
  ])('gives JSON.parse\'s value: %s', (_name, text) => {
    const memo = memoWithMap();
    const value = expectSameAsJsonParse(memo, 'shp_a', text);
    if (value !== null && typeof value === 'object' && 'collections' in value && value.collections === map) {
      // Handed back only where JSON.parse built an equal map at the top level.
      expect((JSON.parse(text) as { collections: unknown }).collections).toEqual(map);
    }
  });

  it('gives JSON.parse\'s value for random texts around the map\'s text', () => {
    const memo = memoWithMap();
    const piece = fc.constantFrom(mapText, '"collections":', '{', '}', '[', ']', ',', ':', '"', '"a"', '1', 'null', '\\u0000', '\\"', ' ', '{"\\u0000":0}');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        expectSameAsJsonParse(memo, 'shp_a', pieces.join(''));
        expectSameAsJsonParse(memo, 'shp_a', `{"cart":{},${pieces.join('')}}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives JSON.parse\'s value for random bodies holding the map, and the map object only at the top level', () => {
    const memo = memoWithMap();
    const json = fc.jsonValue({ maxDepth: 2 });
    const key = fc.constantFrom('cart', 'collections', 'visitorId', 'x', '__proto__', 'constructor');
    const entry = fc.tuple(key, fc.oneof(json, fc.constant(map), fc.record({ collections: fc.constant(map) })));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (entries) => {
        const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        const value = expectSameAsJsonParse(memo, 'shp_a', text) as Record<string, unknown>;
        const lastTop = entries.filter(([k]) => k === 'collections').at(-1);
        if (value.collections === map) expect(lastTop?.[1]).toBe(map);
      }),
      { numRuns: 1000 },
    );
  });
});
