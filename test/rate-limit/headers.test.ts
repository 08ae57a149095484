import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, structuredFieldString } from '../../src/rate-limit/headers.ts';
import { RATE_LIMIT_POLICIES, rateLimitKey } from '../../src/rate-limit/policies.ts';

describe('rateLimitHeaders', () => {
  it('describes the policy and the remaining quota of an allowed request', () => {
    expect(rateLimitHeaders('default', { allowed: true, limit: 120, remaining: 119, resetSeconds: 60 }, 60)).toEqual({
      'ratelimit-policy': '"default";q=120;w=60',
      ratelimit: '"default";r=119;t=60',
    });
  });

  it('adds Retry-After in seconds to a denied request', () => {
    expect(
      rateLimitHeaders(
        'analytics',
        { allowed: false, limit: 30, remaining: 0, retryAfterSeconds: 7, resetSeconds: 42 },
        60,
      ),
    ).toEqual({
      'ratelimit-policy': '"analytics";q=30;w=60',
      ratelimit: '"analytics";r=0;t=42',
      'retry-after': '7',
    });
  });

  it('serialises the policy name as a structured field string', () => {
    expect(structuredFieldString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(() => structuredFieldString('café')).toThrow(RangeError);
    expect(() => structuredFieldString('line\nbreak')).toThrow(RangeError);
  });

  it('requires a whole, positive number of seconds for w', () => {
    const decision = { allowed: true, limit: 1, remaining: 0, resetSeconds: 1 } as const;
    expect(() => rateLimitHeaders('default', decision, 0)).toThrow(RangeError);
    expect(() => rateLimitHeaders('default', decision, 0.5)).toThrow(RangeError);
  });
});

describe('RATE_LIMIT_POLICIES', () => {
  it('carries the limits of SPEC.md and CONTRACT "Storefront" per minute', () => {
    expect(
      Object.values(RATE_LIMIT_POLICIES).map(({ name, limit, windowMs }) => [name, limit, windowMs]),
    ).toEqual([
      ['default', 120, 60_000],
      ['analytics', 30, 60_000],
      ['events', 60, 60_000],
      ['import', 10, 60_000],
      ['storefront', 120, 60_000],
    ]);
    expect(rateLimitKey('shp_1', 'key_1', RATE_LIMIT_POLICIES.events)).toBe('{shp_1}:key_1:events');
  });
});
