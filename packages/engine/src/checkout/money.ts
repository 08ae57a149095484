// Checkout amounts: the input has decimal strings in major units; rules and settings use
// integer minor units. The exponent comes from the one ISO 4217 table (currency/minor-units.ts).
import { minorUnitExponent } from '../currency/minor-units.ts';

/**
 * A decimal amount in major units as integer minor units; NaN when unreadable.
 *
 * @example toMinorUnits('12.34', 'USD') // 1234
 */
export function toMinorUnits(amount: string | number, currencyCode: string): number {
  return toMinorUnitsAt(amount, 10 ** minorUnitExponent(currencyCode));
}

/**
 * {@link toMinorUnits} with the currency's scale (`10 ** exponent`) computed once by the
 * caller: the checkout function converts every line of a cart in one currency.
 *
 * @example toMinorUnitsAt('12.34', 100) // 1234
 */
export function toMinorUnitsAt(amount: string | number, scale: number): number {
  // `+` is Number(): a blank string reads as 0, so only a 0 asks whether the text was blank
  // (unreadable). The platform's prices are rarely 0: one runtime call (trim) fewer a line
  // in QuickJS (docs/checkout-function.md "Instructions"); the same answer for every string.
  const value = +amount;
  return Math.round((value !== 0 || typeof amount === 'number' || amount.trim() !== '' ? value : Number.NaN) * scale);
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
