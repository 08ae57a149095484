/** The retry schedule (Standard Webhooks / svix) with ±20 % jitter, and Retry-After parsing. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, parseRetryAfter, RETRY_DELAYS_MS, retryDelayMs } from '../../src/outbox/retry-schedule.ts';

describe('retryDelayMs', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h at the centre of the jitter, then gives up after 8 attempts', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, () => 0.5))).toEqual([
      5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(retryDelayMs(8, () => 0.5)).toBeUndefined();
  });

  it('stays within ±20 % of the schedule for any draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, draw) => {
        const base = RETRY_DELAYS_MS[attempt - 1] ?? 0;
        const delay = retryDelayMs(attempt, () => draw) ?? -1;
        expect(delay).toBeGreaterThanOrEqual(base * 0.8);
        expect(delay).toBeLessThanOrEqual(base * 1.2);
      }),
    );
  });

  it('lets Retry-After push a retry later, never earlier, and caps it at a day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.nat({ max: 10 * MAX_RETRY_AFTER_MS }), (attempt, retryAfter) => {
        const scheduled = retryDelayMs(attempt, () => 0.5) ?? 0;
        const delay = retryDelayMs(attempt, () => 0.5, retryAfter) ?? 0;
        expect(delay).toBe(Math.max(scheduled, Math.min(retryAfter, MAX_RETRY_AFTER_MS)));
      }),
    );
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 00:01:00 GMT', 60_000],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
    [null, undefined],
    ['', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['2026-01-01', undefined],
  ])('reads %j as %j ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});
