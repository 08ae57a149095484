import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateOfDayNumber, datesBetween, dayNumberOf, localDateOf } from '../../src/analytics/calendar.ts';
import { toDecimalAmount } from '../../src/analytics/money.ts';

describe('calendar dates', () => {
  it.each([
    ['1970-01-01', 0],
    ['1970-01-02', 1],
    ['1969-12-31', -1],
    ['2000-02-29', 11_016],
    ['2026-03-08', 20_520],
  ])('numbers %s as day %i', (date, day) => {
    expect(dayNumberOf(date)).toBe(day);
    expect(dateOfDayNumber(day)).toBe(date);
  });

  it.each(['2026-02-29', '2025-02-29', '1900-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-1-1', '26-01-01', '2026-01-01T00:00:00Z', ' 2026-01-01', '0000-01-01', ''])(
    'rejects %j',
    (text) => {
      expect(dayNumberOf(text)).toBeUndefined();
    },
  );

  it('accepts 29 February of leap years only', () => {
    expect(dayNumberOf('2000-02-29')).toBeDefined();
    expect(dayNumberOf('2028-02-29')).toBeDefined();
  });

  it('agrees with Date.UTC for every day of years 1–9999 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: dayNumberOf('0001-01-01') ?? 0, max: dayNumberOf('9999-12-31') ?? 0 }), (day) => {
        const date = new Date(day * 86_400_000);
        const text = `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
        expect(dateOfDayNumber(day)).toBe(text);
        expect(dayNumberOf(text)).toBe(day);
      }),
    );
  });

  it('lists the dates of a range, both ends included', () => {
    expect(datesBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(datesBetween('2026-01-02', '2026-01-01')).toEqual([]);
  });

  it.each([
    ['2026-01-11T04:30:00Z', 'America/New_York', '2026-01-10'],
    ['2026-01-11T05:30:00Z', 'America/New_York', '2026-01-11'],
    ['2026-03-08T06:59:59Z', 'America/New_York', '2026-03-08'],
    ['2026-11-02T04:59:59Z', 'America/New_York', '2026-11-01'],
    ['2026-01-01T14:59:59Z', 'Asia/Tokyo', '2026-01-01'],
    ['2026-01-01T15:00:00Z', 'Asia/Tokyo', '2026-01-02'],
    ['2026-01-01T10:00:00Z', 'Asia/Kolkata', '2026-01-01'],
    ['2026-06-30T23:59:59Z', 'UTC', '2026-06-30'],
  ])('puts %s on its local day in %s', (instant, zone, date) => {
    expect(localDateOf(new Date(instant), zone)).toBe(date);
  });
});

describe('amounts', () => {
  it.each([
    [1234, 'USD', 12.34],
    [5, 'USD', 0.05],
    [0, 'USD', 0],
    [-150, 'USD', -1.5],
    [1234, 'JPY', 1234],
    [1234, 'KWD', 1.234],
    [1, 'KWD', 0.001],
    // ISO 4217's minor unit (the engine's table), where Intl shows 0 digits.
    [1234, 'HUF', 12.34],
    [1234, 'IDR', 12.34],
    [1234, 'IQD', 1.234],
  ])('shows %i minor units of %s as %d', (minor, currency, expected) => {
    expect(toDecimalAmount(minor, currency)).toBe(expected);
  });

  it('is the number the decimal text denotes, for any amount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        expect(toDecimalAmount(minor, 'USD')).toBe(Number(`${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`));
      }),
    );
  });
});
