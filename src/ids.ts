/**
 * Prefixed, time-ordered ids (`cmp_…`, `rul_…`, `key_…`): the prefix says what an id names
 * when it turns up in a log or a support ticket. The 16-character base62 body is 8
 * characters of milliseconds then 8 random ones, incremented within one millisecond, so ids
 * made by one process sort in creation order (a batch import lists in the order it was sent).
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'shp' | 'key' | 'cmp' | 'rul' | 'exp' | 'var' | 'whe' | 'msg' | 'obx' | 'req' | 'sft' | 'imp';

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
 * Random bytes for ids (not secrets: those take randomBase62's own call), drawn from a pool
 * refilled 1 KB at a time. Every request gets an id and every new millisecond needs 8 fresh
 * characters; one `randomBytes` call per new millisecond was ~3% of GET /rules' CPU (the
 * call's cost, not the bytes'). Each byte is used once.
 */
const pool = Buffer.alloc(1024);
let poolUsed = pool.length;

function poolByte(): number {
  if (poolUsed === pool.length) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const byte = pool[poolUsed] ?? 0;
  poolUsed += 1;
  return byte;
}

/** Like randomBase62, from the pool. */
function idRandom(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = poolByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

function base62(value: number, width: number): string {
  let out = '';
  for (let rest = value; out.length < width; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out;
  return out;
}

/** Adds one to a base62 string; undefined when it would overflow. */
function increment(text: string): string | undefined {
  // Every request gets an id: touch only the digits that change.
  for (let i = text.length - 1; i >= 0; i -= 1) {
    const digit = ALPHABET.indexOf(text.charAt(i));
    if (digit < 61) return `${text.slice(0, i)}${ALPHABET.charAt(digit + 1)}${'0'.repeat(text.length - 1 - i)}`;
  }
  return undefined;
}

let lastTime = -1;
let lastTimeText = '';
/** The last id's body but its last character, and that character's index in ALPHABET. */
let lastStem = '';
let lastDigit = 61;

/**
 * A new id with its prefix.
 *
 * @example
 *   newId('cmp'); // 'cmp_0Wn3kQ7a3fK9x0Lq'
 */
export function newId(prefix: IdPrefix): string {
  const now = Math.max(Date.now(), lastTime);
  // Within one millisecond only the last character changes, 61 times in 62: the id is the
  // stem kept from the last one and the next character (every request gets an id).
  if (now === lastTime && lastDigit < 61) {
    lastDigit += 1;
    return `${prefix}_${lastStem}${ALPHABET.charAt(lastDigit)}`;
  }
  const next = now === lastTime ? increment(`${lastStem.slice(8)}${ALPHABET.charAt(lastDigit)}`) : undefined;
  let lastRandom: string;
  if (next === undefined) {
    // A new millisecond, or 62^8 ids in this one: move on with fresh randomness.
    lastTime = next === undefined && now === lastTime ? now + 1 : now;
    lastTimeText = base62(lastTime, 8);
    lastRandom = idRandom(8);
  } else {
    lastRandom = next;
  }
  lastStem = `${lastTimeText}${lastRandom.slice(0, -1)}`;
  lastDigit = ALPHABET.indexOf(lastRandom.charAt(lastRandom.length - 1));
  return `${prefix}_${lastTimeText}${lastRandom}`;
}
