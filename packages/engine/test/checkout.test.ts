import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMinorUnitsAt } from '../src/checkout/money.ts';
import { toDecimalString, toMinorUnits } from '../src/index.ts';

// The checkout function's own cases run through its bundle in QuickJS
// (test/checkout-function*.test.ts at the repo root); here only the money helpers.
describe('money', () => {
  it.each([
    ['12.34', 'USD', 1234],
    ['1000', 'JPY', 1000],
    ['1.234', 'KWD', 1234],
    ['0.1', 'USD', 10],
  ])('%s %s -> %i minor units', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
    expect(toMinorUnits(toDecimalString(minor, currency), currency)).toBe(minor);
  });

  // toMinorUnitsAt before it skipped `trim` for the amounts that do not read as 0 (issue 22, instructions).
  const before = (amount: string | number, scale: number) =>
    Math.round((typeof amount === 'number' ? amount : Number(amount.trim() === '' ? Number.NaN : amount)) * scale);
  const scale = fc.constantFrom(1, 10, 100, 1000, 10_000);
  const blank = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0', '\ufeff', '\u2028');
  const decimal = fc
    .tuple(fc.nat({ max: 10_000_000 }), fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 4 }), { nil: undefined }))
    .map(([units, fraction]) => (fraction === undefined ? String(units) : `${units}.${fraction}`));
  const amount = fc.oneof(
    decimal,
    decimal.map((text) => `-${text}`),
    fc.tuple(blank, decimal, blank).map(([a, text, b]) => `${a}${text}${b}`),
    blank,
    fc.constantFrom('0', '0.0', '0.00', '-0', '.0', '0.', '00', '0e3', '1e3', '0x10', 'Infinity', '-Infinity', 'NaN', 'abc', '1,50', '12.34.5', '+5', ' 0 '),
    fc.string(),
    fc.double(),
    fc.integer(),
  );

  it('toMinorUnitsAt: the same minor units as before for every amount (NaN when unreadable)', () => {
    fc.assert(
      fc.property(amount, scale, (value, at) => {
        expect(Object.is(toMinorUnitsAt(value, at), before(value, at))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
