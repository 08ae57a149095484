/**
 * Platform ids: `gid://<platform>/<Type>/<digits>` or the bare numeric id.
 * SPEC compares ids by their numeric part, so a rule written with a gid matches a
 * cart line that only carries the number, and the other way round.
 */

const GID_PREFIX = 'gid://';
const SLASH = 47;

/**
 * A platform id reduced for comparison and hashing: a number when it is a safe integer
 * (every id seen in practice; numbers hash without walking a string), else its digit
 * string. Both sides of every comparison go through this, so the forms never mix.
 */
export type IdKey = number | string;

/**
 * The comparison key of a gid or numeric id (see {@link IdKey}), or `undefined` when the
 * value is neither. Hand-parsed without allocating: it runs for every cart line of every
 * evaluation.
 *
 * @example idKeyOf('gid://shopify/Product/42') // 42
 */
export function idKeyOf(value: unknown): IdKey | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  // Fast path for the common shapes, scanning the trailing digits once from the end:
  // 'gid://.../<up to 15 digits>' or up to 15 bare digits. Anything else (whitespace, a
  // query, long ids, garbage) takes the general path below.
  const end = value.length;
  let i = end - 1;
  let number = 0;
  let scale = 1;
  for (; i >= 0; i--) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) break;
    number += (code - 48) * scale;
    scale *= 10;
  }
  const digits = end - 1 - i;
  if (digits > 0 && digits <= 15) {
    if (i < 0) return number;
    // The segments between prefix and digits are not re-checked here: gids in rules are
    // validated at save time, and cart ids come from the platform.
    if (value.charCodeAt(i) === SLASH && hasGidPrefix(value)) return number;
  }
  return parseIdKey(value);
}

// Char by char: string builtins are calls into the runtime, slower on short strings.
function hasGidPrefix(value: string): boolean {
  return (
    value.length > GID_PREFIX.length &&
    value.charCodeAt(0) === 103 && // g
    value.charCodeAt(1) === 105 && // i
    value.charCodeAt(2) === 100 && // d
    value.charCodeAt(3) === 58 && // :
    value.charCodeAt(4) === SLASH &&
    value.charCodeAt(5) === SLASH
  );
}

function parseIdKey(value: string): IdKey | undefined {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  if (value.startsWith(GID_PREFIX, start)) {
    // gid://.../<digits>[?query]: the id is the last path segment, as on the fast path.
    const query = value.indexOf('?', start);
    if (query >= 0 && query < end) end = query;
    start = value.lastIndexOf('/', end - 1) + 1;
  }
  if (start >= end) return undefined;
  let number = 0;
  for (let i = start; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
    number = number * 10 + (code - 48);
  }
  if (Number.isSafeInteger(number)) return number;
  // Beyond 2^53: keep the exact digits, without leading zeros ('007' and '7' are one id).
  while (start < end - 1 && value.charCodeAt(start) === 48) start++;
  return value.slice(start, end);
}

/**
 * {@link idKeyOf} of a string, with few runtime calls: what the checkout function uses on
 * the input's gids. In QuickJS (the platform's JS engine) every `charCodeAt` of idKeyOf's
 * scan is a call into the runtime, about 45,000 WebAssembly instructions for a product gid;
 * `lastIndexOf`, `slice`, `Number`, `String` and `startsWith` cost about a fifth of that. In
 * V8 the scan is faster, so the storefront keeps idKeyOf. Same answer for every string.
 *
 * @example gidKeyOf('gid://shopify/ProductVariant/45000000000001') // 45000000000001
 */
export function gidKeyOf(value: string): IdKey | undefined {
  const slash = value.lastIndexOf('/');
  const tail = value.slice(slash + 1);
  const number = Number(tail);
  // Canonical digits only (not '012', '1e3', ' 12', '-5', '0x1f'), as idKeyOf's fast path takes them.
  if (slash > 5 && tail.length <= 15 && Number.isSafeInteger(number) && number >= 0 && String(number) === tail && value.startsWith(GID_PREFIX)) return number;
  return idKeyOf(value);
}

/**
 * The numeric part of a gid or a numeric id, as a string (ids may exceed 2^53), or
 * `undefined` when the value is neither.
 *
 * @example numericIdOf('gid://shopify/Product/42') // '42'
 * @example numericIdOf(42) // '42'
 */
export function numericIdOf(value: unknown): string | undefined {
  const key = idKeyOf(value);
  return key === undefined ? undefined : String(key);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}
