/**
 * Prefixed random ids (`cmp_…`, `rul_…`, `key_…`): the prefix says what an id names when it
 * turns up in a log or a support ticket; the body is 16 base62 characters (~95 bits).
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'shp' | 'key' | 'cmp' | 'rul' | 'exp' | 'var' | 'whe' | 'msg' | 'obx' | 'req';

/** `length` random base62 characters, uniform (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would bias the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A new id with its prefix.
 *
 * @example
 *   newId('cmp'); // 'cmp_3fK9x0LqP2mZ8aTb'
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
