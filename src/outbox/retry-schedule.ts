/**
 * When a failed outbox attempt is tried again. The schedule is Standard Webhooks' (svix's):
 * the first attempt is immediate, and each later one starts this long after the previous
 * attempt failed — 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — so 8 attempts in all over
 * about 27.6 hours, each delay with ±20 % jitter so a recovering receiver is not hit by a
 * synchronised wave.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before attempt n + 2 after attempt n + 1 failed (index n). */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
/** The first attempt plus one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.2;
/** A receiver's Retry-After is honoured up to this; longer asks are capped, not obeyed. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * The delay after failed attempt number `attempt` (1-based), or undefined when it was the
 * last. `random` returns [0, 1); `retryAfterMs` is the receiver's ask, which can only push
 * the retry later, never earlier than the schedule.
 *
 * @example
 *   retryDelayMs(1, () => 0.5); // 5000 (5 s, jitter centred)
 *   retryDelayMs(8, Math.random); // undefined: give up
 */
export function retryDelayMs(attempt: number, random: () => number, retryAfterMs?: number): number | undefined {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return undefined;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/**
 * A `Retry-After` header (RFC 9110: delay-seconds or an HTTP date) in milliseconds from
 * `now`, or undefined when absent or unreadable. A date in the past means "now" (0).
 *
 * @example
 *   parseRetryAfter('120', new Date()); // 120000
 *   parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', new Date('2015-10-21T07:27:00Z')); // 60000
 */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  // Only the HTTP-date forms (they name a weekday or month), not any string Date.parse accepts.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
