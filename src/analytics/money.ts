/**
 * Amounts as SPEC's analytics show them: decimal units of the shop's base currency, with the
 * currency's own number of minor digits (JPY 0, USD 2, KWD 3), from integer minor units.
 */

const digitsByCurrency = new Map<string, number>();

/**
 * How many minor-unit digits `currency` has, as Intl knows it.
 *
 * @example
 *   minorDigitsOf('JPY'); // 0
 *   minorDigitsOf('KWD'); // 3
 */
export function minorDigitsOf(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/**
 * Integer minor units as a decimal number. Sums are always taken over the integers first and
 * converted once: the decimal text is built from the integer's digits, so 1234 USD-cents is
 * the number parsed from "12.34" and no float arithmetic can drift.
 *
 * @example
 *   toDecimalAmount(1234, 'USD'); // 12.34
 *   toDecimalAmount(1234, 'JPY'); // 1234
 */
export function toDecimalAmount(minor: number | bigint, currency: string): number {
  const digits = minorDigitsOf(currency);
  const value = BigInt(minor);
  if (digits === 0) return Number(value);
  const negative = value < 0n;
  const text = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const decimal = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return Number(negative ? `-${decimal}` : decimal);
}
