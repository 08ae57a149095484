// ISO 4217 currencies whose minor unit is not 1/100. Amounts in the checkout input are
// decimal strings in major units; rules and settings use integer minor units.
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/**
 * Decimal places of a currency's minor unit.
 *
 * @example minorUnitExponent('JPY') // 0
 */
export function minorUnitExponent(currencyCode: string): number {
  const code = currencyCode.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  return THREE_DECIMAL.has(code) ? 3 : 2;
}

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
