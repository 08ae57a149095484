import { describe, expect, it } from 'vitest';
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
});
