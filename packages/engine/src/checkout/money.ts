// Checkout amounts: the input has decimal strings in major units; rules and settings use
// integer minor units. The exponent comes from the one ISO 4217 table (currency/minor-units.ts).
import { minorUnitExponent } from '../currency/minor-units.ts';

/**
 * A decimal amount in major units as integer minor units; NaN when unreadable.
 *
 * @example toMinorUnits('12.34', 'USD') // 1234
 */
export function toMinorUnits(amount: string | number, currencyCode: string): number {
  const value = typeof amount === 'number' ? amount : Number(amount.trim() === '' ? Number.NaN : amount);
  return Math.round(value * 10 ** minorUnitExponent(currencyCode));
}

/**
 * Integer minor units as the decimal string the platform expects.
 *
 * @example toDecimalString(1234, 'USD') // '12.34'
 */
export function toDecimalString(minor: number, currencyCode: string): string {
  const exponent = minorUnitExponent(currencyCode);
  return (minor / 10 ** exponent).toFixed(exponent);
}
