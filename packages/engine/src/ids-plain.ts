/**
 * ids.ts for the storefront bundle (packages/storefront/scripts/build-script.ts): the same
 * exports and the same keys, read with two regular expressions instead of ids.ts's hand-written
 * scanner (which saves a server allocations on every cart line of every evaluation, and the
 * first load bytes it cannot spare). Held to ids.ts by test/ids-plain.test.ts.
 */
import type { IdKey } from './ids.ts';

export type { IdKey };

/**
 * The comparison key of a gid or numeric id (see ids.ts), or `undefined` when the value is neither.
 *
 * @example idKeyOf('gid://shopify/Product/42') // 42
 */
export function idKeyOf(value: unknown): IdKey | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  // ids.ts's fast path: up to 15 digits, bare or after a `/` of a value that starts `gid://`.
  const short = /^(?:gid:\/\/.*\/)?(\d{1,15})$/s.exec(value);
  if (short !== null) return Number(short[1]);
  // Its general path: trimmed; a gid's last path segment before any query; digits only.
  let digits = value.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (digits.startsWith('gid://')) digits = digits.replace(/\?.*$/s, '').replace(/^.*\//s, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const number = Number(digits);
  // Beyond 2^53: the exact digits, without leading zeros ('007' and '7' are one id).
  return Number.isSafeInteger(number) ? number : digits.replace(/^0+(?=\d)/, '');
}

/**
 * The numeric part of a gid or a numeric id, as a string, or `undefined` when the value is neither.
 *
 * @example numericIdOf('gid://shopify/Product/42') // '42'
 */
export function numericIdOf(value: unknown): string | undefined {
  const key = idKeyOf(value);
  return key === undefined ? undefined : String(key);
}
