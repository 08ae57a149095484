/**
 * The platform's money is a decimal string in major units (`"19.99"`); the service counts
 * integer minor units (CONTRACT "Platform orders"). The conversion is done on the digits, not
 * through a double (`19.99 * 100` is 1998.9999999999998), with the exponent of the engine's
 * one ISO 4217 table.
 */
import { minorUnitExponent } from '@gcrs/engine';

const DECIMAL = /^(\d{1,15})(?:\.(\d{1,12}))?$/;

/**
 * `amount` in integer minor units of `currency`, or undefined when it is not a non-negative
 * decimal, has non-zero digits past the currency's exponent (an amount the currency cannot
 * hold), or exceeds 2^53 - 1 minor units.
 *
 * @example
 *   decimalToMinorUnits('19.99', 'USD'); // 1999
 *   decimalToMinorUnits('1000.00', 'JPY'); // 1000
 *   decimalToMinorUnits('1.2345', 'USD'); // undefined
 */
export function decimalToMinorUnits(amount: string, currency: string): number | undefined {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return undefined;
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const exponent = minorUnitExponent(currency);
  const kept = fraction.slice(0, exponent).padEnd(exponent, '0');
  if (/[^0]/.test(fraction.slice(exponent))) return undefined;
  const minor = Number(`${whole}${kept}`);
  return Number.isSafeInteger(minor) ? minor : undefined;
}
