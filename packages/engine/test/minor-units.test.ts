import { describe, expect, it } from 'vitest';
import { DEFAULT_MINOR_UNIT, minorUnitExponent, toDecimalString, toMinorUnits } from '../src/index.ts';

describe('the ISO 4217 minor-unit table', () => {
  // HUF, IDR, COP, MGA and IQD are the codes where the server (Intl) and the engine used
  // to disagree; ISO 4217 List One decides.
  it.each([
    ['HUF', 2],
    ['IDR', 2],
    ['COP', 2],
    ['MGA', 2],
    ['IQD', 3],
    ['JPY', 0],
    ['KRW', 0],
    ['ISK', 0],
    ['UYI', 0],
    ['KWD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['UYW', 4],
    ['USD', 2],
    ['EUR', 2],
  ])('gives %s %i decimal places', (code, exponent) => {
    expect(minorUnitExponent(code)).toBe(exponent);
  });

  it('reads codes case-insensitively and gives unknown codes the default of 2', () => {
    expect([minorUnitExponent('jpy'), minorUnitExponent('Kwd')]).toEqual([0, 3]);
    expect([minorUnitExponent('XAU'), minorUnitExponent('ZZZ')]).toEqual([DEFAULT_MINOR_UNIT, DEFAULT_MINOR_UNIT]);
  });

  it.each([
    ['12.34', 'USD', 1234, '12.34'],
    ['1234', 'JPY', 1234, '1234'],
    ['12.34', 'HUF', 1234, '12.34'],
    ['1.234', 'IQD', 1234, '1.234'],
    ['1.2345', 'CLF', 12345, '1.2345'],
  ])('converts %s %s to %i minor units and back', (decimal, code, minor, text) => {
    expect(toMinorUnits(decimal, code)).toBe(minor);
    expect(toDecimalString(minor, code)).toBe(text);
  });
});
