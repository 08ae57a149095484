/**
 * Sizes and short keys of the checkout function's configuration (compact-config.ts,
 * config-metafields.ts), zod-free and without TextEncoder, which not every function runtime has.
 */
import { fnv1a32 } from '../planner/fnv1a.ts';

/** The platform's cap on each metafield a function reads (bytes of the JSON value). */
export const CHECKOUT_CONFIG_LIMIT_BYTES = 10_000;

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The short key of an id in the configuration: the low 24 bits of FNV-1a 32 as four
 * base64url characters. The key only says which rule a line claims; the claim is then
 * re-checked in full, so a guessed key gains nothing. Live ids of one shop that share a key
 * keep their full ids (see `uniqueKeys`), so a collision costs bytes, never correctness.
 *
 * @example keyOf('rul_0Wn3kQ7a3fK9x0Lq') // four characters
 */
export function keyOf(id: string): string {
  const hash = fnv1a32(id);
  let key = '';
  for (let shift = 18; shift >= 0; shift -= 6) key += KEY_ALPHABET[(hash >>> shift) & 63];
  return key;
}

/** UTF-8 length of a string, without TextEncoder (not every function runtime has it). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
