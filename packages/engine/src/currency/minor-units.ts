// The one ISO 4217 minor-unit table of the service: the engine's checkout money and the
// server's amounts (analytics, anything that turns minor units into decimals) both read it,
// so an amount stored as integer minor units means the same everywhere.
//
// Source: ISO 4217 List One ("current currency & funds"), as published by SIX, the
// maintenance agency, at its 2025 editions (after the amendments adding ZWG and XCG).
// Only the codes whose minor unit is not 2 are listed; every other List One code has 2.
// Codes whose minor unit is "N.A." (XAU, XAG, XPT, XPD, XDR, XBA–XBD, XSU, XUA, XTS, XXX)
// and codes outside the list fall back to 2 as well: the service needs *some* exponent
// for a shop's currency, and 2 is the common case.
//
// This is ISO's minor unit, not the digits a locale shows (CLDR/Intl): Intl formats HUF,
// IDR, COP, PKR… with 0 digits and IQD with 0, where ISO 4217 says 2 and 3. Amounts are
// exchanged with the platform in ISO minor units, so ISO decides.
const MINOR_UNIT_EXCEPTIONS: ReadonlyMap<string, number> = new Map([
  // 0: one unit has no subdivision in use.
  ['BIF', 0], ['CLP', 0], ['DJF', 0], ['GNF', 0], ['ISK', 0], ['JPY', 0], ['KMF', 0],
  ['KRW', 0], ['PYG', 0], ['RWF', 0], ['UGX', 0], ['UYI', 0], ['VND', 0], ['VUV', 0],
  ['XAF', 0], ['XOF', 0], ['XPF', 0],
  // 3: thousandths (fils, baisa, millime, dirham).
  ['BHD', 3], ['IQD', 3], ['JOD', 3], ['KWD', 3], ['LYD', 3], ['OMR', 3], ['TND', 3],
  // 4: units of account (Unidad de Fomento, Unidad Previsional).
  ['CLF', 4], ['UYW', 4],
]);

/** The minor unit of every code not in the table above (ISO 4217's common case). */
export const DEFAULT_MINOR_UNIT = 2;

/**
 * Decimal places of a currency's ISO 4217 minor unit: how many digits an integer amount
 * in minor units has after the decimal point. Case-insensitive; unknown codes get 2.
 *
 * @example
 * minorUnitExponent('JPY') // 0
 * minorUnitExponent('HUF') // 2
 * minorUnitExponent('kwd') // 3
 */
export function minorUnitExponent(currencyCode: string): number {
  return MINOR_UNIT_EXCEPTIONS.get(currencyCode.toUpperCase()) ?? DEFAULT_MINOR_UNIT;
}
