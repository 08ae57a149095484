/**
 * No loops (CONTRACT "Storefront"): an add the cart refuses (422, sold out) is not retried
 * for the same cart state; a 429 or 409 is retried with backoff, at most three times.
 */

export const MAX_RETRIES = 3;
const BASE_DELAY_MS = 400;
const MAX_DELAY_MS = 8000;

export type RetryDecision =
  | { kind: 'ok' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'refused' }
  | { kind: 'failed' };

/**
 * What to do after a cart call answered `status` on attempt `attempt` (0 = the first try).
 * 429/409 are retried after `Retry-After` seconds when given, else 400 ms × 2^attempt
 * (with up to 25% jitter from `random`), capped at 8 s; 422 is a refusal; other errors fail.
 *
 * @example retryDecision(429, 0, null, () => 0) // { kind: 'retry', delayMs: 400 }
 * @example retryDecision(429, 3, null) // { kind: 'failed' }
 */
export function retryDecision(status: number, attempt: number, retryAfter: string | null, random: () => number = Math.random): RetryDecision {
  if (status >= 200 && status < 300) return { kind: 'ok' };
  if (status === 422) return { kind: 'refused' };
  if ((status === 429 || status === 409) && attempt < MAX_RETRIES) {
    const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
    const base = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : BASE_DELAY_MS * 2 ** attempt * (1 + random() / 4);
    return { kind: 'retry', delayMs: Math.min(MAX_DELAY_MS, Math.round(base)) };
  }
  return { kind: 'failed' };
}

/**
 * Remembers the gifts the cart refused, per cart state: the planner is told they are
 * unavailable while the cart stays in that state (so `fallbackOnOOS` moves on to the next
 * gift), and they are tried again once the shopper changes the cart.
 *
 * @example const refusals = createRefusals(); refusals.refuse('USD|1x1', gid); refusals.isRefused('USD|1x1', gid) // true
 */
export function createRefusals(maxStates = 20) {
  const byState = new Map<string, Set<string>>();
  return {
    refuse(stateKey: string, variantId: string): void {
      const set = byState.get(stateKey) ?? new Set<string>();
      set.add(variantId);
      byState.delete(stateKey);
      byState.set(stateKey, set);
      const oldest = byState.keys().next();
      if (byState.size > maxStates && oldest.done !== true) byState.delete(oldest.value);
    },
    isRefused(stateKey: string, variantId: string): boolean {
      return byState.get(stateKey)?.has(variantId) === true;
    },
  };
}
export type Refusals = ReturnType<typeof createRefusals>;
