import { describe, expect, it } from 'vitest';
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
