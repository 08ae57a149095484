/**
 * The platform's JSON as sent: its ids are 64-bit integers written as bare numbers
 * (`"id": 820982911946154508`), which `JSON.parse` rounds to the nearest double
 * (820982911946154500) — a different order. Node's reviver sees each number's source text
 * (`context.source`, TC39 "JSON.parse source text access"), so an integer beyond 2^53 is kept
 * as the digits it was written with; every other value parses as usual.
 */

const INTEGER_TEXT = /^-?\d+$/;

/** The third reviver argument of JSON.parse with source text access (Node 21+). */
type ReviverContext = { source?: string };

function keepLargeIntegers(_key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER_TEXT.test(source) ? source : value;
}

/**
 * Parses JSON text, giving integers outside ±(2^53 - 1) as their decimal digits (a string).
 * Throws SyntaxError as JSON.parse does.
 *
 * @example
 *   parseLosslessJson('{"id": 820982911946154508, "n": 3}'); // { id: '820982911946154508', n: 3 }
 */
export function parseLosslessJson(text: string): unknown {
  return JSON.parse(text, keepLargeIntegers);
}
