/**
 * Platform ids: `gid://<platform>/<Type>/<digits>` or the bare numeric id.
 * SPEC compares ids by their numeric part, so a rule written with a gid matches a
 * cart line that only carries the number, and the other way round.
 */

const GID_TAIL = /^gid:\/\/[^/]+\/[A-Za-z]+\/(\d+)(?:\?.*)?$/;
const DIGITS = /^\d+$/;

/**
 * The numeric part of a gid or a numeric id, as a string (ids may exceed 2^53), or
 * `undefined` when the value is neither.
 *
 * @example numericIdOf('gid://shopify/Product/42') // '42'
 * @example numericIdOf(42) // '42'
 */
export function numericIdOf(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (DIGITS.test(trimmed)) return stripLeadingZeros(trimmed);
  const match = GID_TAIL.exec(trimmed);
  return match?.[1] === undefined ? undefined : stripLeadingZeros(match[1]);
}

// '007' and '7' name the same id; comparing strings needs one spelling.
function stripLeadingZeros(digits: string): string {
  const stripped = digits.replace(/^0+(?=\d)/, '');
  return stripped;
}
