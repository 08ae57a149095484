/**
 * Amounts as SPEC's analytics show them: decimal units of the shop's base currency, with the
 * currency's ISO 4217 minor unit (JPY 0, USD 2, HUF 2, KWD 3), from integer minor units.
 * The exponent is the engine's table, the one the checkout logic uses too: Intl's digits
 * are a locale's display choice and differ (HUF, IDR, COP, MGA, IQD…).
 */
import { minorUnitExponent } from '@gcrs/engine';

/**
 * Integer minor units as a decimal number. Sums are always taken over the integers first and
 * converted once: the decimal text is built from the integer's digits, so 1234 USD-cents is
 * the number parsed from "12.34" and no float arithmetic can drift.
 *
 * @example
 *   toDecimalAmount(1234, 'USD'); // 12.34
 *   toDecimalAmount(1234, 'JPY'); // 1234
 *   toDecimalAmount(1234, 'IQD'); // 1.234
 */
export function toDecimalAmount(minor: number | bigint, currency: string): number {
  const digits = minorUnitExponent(currency);
  const value = BigInt(minor);
  if (digits === 0) return Number(value);
  const negative = value < 0n;
  const text = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const decimal = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return Number(negative ? `-${decimal}` : decimal);
}
