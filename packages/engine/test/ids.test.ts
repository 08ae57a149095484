import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gidKeyOf, idKeyOf } from '../src/ids.ts';
import { numericIdOf } from '../src/index.ts';

describe('numericIdOf', () => {
  it.each<[unknown, string | undefined]>([
    ['gid://shopify/Product/42', '42'],
    ['  gid://shopify/ProductVariant/007 ', '7'],
    ['gid://shopify/Product/42?foo=bar', '42'],
    ['42', '42'],
    [' 0042', '42'],
    ['0', '0'],
    [42, '42'],
    ['12345678901234567890', '12345678901234567890'],
    ['gid://shopify/Product/', undefined],
    ['gid://shopify/Product/4a', undefined],
    // Ids compare by their trailing numeric segment; the gid's middle is not re-validated.
    ['gid://shopify//42', '42'],
    ['gid://shopify/Product/x/42', '42'],
    ['gid://shopify/Product/42/', undefined],
    ['gid://shopify', undefined],
    ['abc', undefined],
    ['', undefined],
    [-1, undefined],
    [1.5, undefined],
    [null, undefined],
  ])('%j -> %j', (input, expected) => {
    expect(numericIdOf(input)).toBe(expected);
  });
});

describe('gidKeyOf (the checkout function\'s idKeyOf for strings)', () => {
  it.each([
    'gid://shopify/Product/42',
    'gid://shopify/ProductVariant/45000000000001',
    '  gid://shopify/ProductVariant/007 ',
    'gid://shopify/Product/007',
    'gid://shopify/Product/42?foo=bar',
    'gid://shopify/Product/-5',
    'gid://shopify/Product/1e3',
    'gid://shopify/Product/1.5',
    'gid://shopify/Product/Infinity',
    'gid://shopify/Product/0x1f',
    'gid://shopify/Product/ 12',
    'gid://shopify/Product/9007199254740993',
    'gid://shopify/Product/123456789012345',
    'gid://shopify/Product/1234567890123456',
    'gid://5',
    'gid:/x/5',
    'foo/123',
    '42',
    '',
    'gid://shopify/Product/',
  ])('%j: the same key as idKeyOf', (value) => {
    expect(gidKeyOf(value)).toEqual(idKeyOf(value));
  });

  it('agrees with idKeyOf on any string of gid parts', () => {
    const part = fc.constantFrom('gid://', 'shopify/', 'Product/', '/', '0', '7', '42', '-', '.', 'e', ' ', '9007199254740993', '?x');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        expect(gidKeyOf(parts.join(''))).toEqual(idKeyOf(parts.join('')));
      }),
      { numRuns: 2000 },
    );
  });
});
