import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits, parseEntityTags } from '../../src/http/etag.ts';

describe('If-None-Match parsing (RFC 9110 weak comparison)', () => {
  it.each([
    ['"a"', ['"a"']],
    ['W/"a"', ['"a"']],
    ['"a", W/"b" ,"c"', ['"a"', '"b"', '"c"']],
    ['"a,b", "c"', ['"a,b"', '"c"']],
    ['*', ['*']],
    ['', []],
    ['garbage', []],
  ])('parses %j', (header, tags) => {
    expect(parseEntityTags(header)).toEqual(tags);
  });

  it.each([
    ['"v1"', '"v1"', true],
    ['W/"v1"', '"v1"', true],
    ['"v0", "v1"', '"v1"', true],
    ['*', '"v1"', true],
    ['"v0"', '"v1"', false],
    ['v1', '"v1"', false],
    [undefined, '"v1"', false],
    [['"v0"', '"v1"'], '"v1"', true],
  ] as const)('%j against %s → %s', (header, etag, hit) => {
    expect(ifNoneMatchHits(header as string | string[] | undefined, etag)).toBe(hit);
  });
});
