/**
 * One webhook attempt: POST the stored payload, signed per Standard Webhooks, with a
 * timeout. 2xx is delivered; anything else (a non-2xx answer, a redirect, a timeout, a
 * network error, a destination the policy refuses) is a failed attempt the dispatcher retries.
 */
import type { AttemptOutcome } from '../outbox/attempt-outcome.ts';
import { parseRetryAfter } from '../outbox/retry-schedule.ts';
import { refusalOf } from './guarded-fetch.ts';
import type { FetchLike } from './guarded-fetch.ts';
import { webhookHeaders } from './sign.ts';

export const WEBHOOK_TIMEOUT_MS = 15_000;

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `Timed out after ${timeoutMs} ms`;
  }
  // fetch reports "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) sits in its causes.
  const codes: string[] = [];
  const pending: unknown[] = [error];
  for (let e = pending.pop(); e !== undefined; e = pending.pop()) {
    if (!(e instanceof Error)) continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !codes.includes(code)) codes.push(code);
    if (e.cause !== undefined) pending.push(e.cause);
    if (e instanceof AggregateError) pending.push(...(e.errors as unknown[]));
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const message = `${error instanceof Error ? error.message : String(error)}${cause}`;
  return codes.length > 0 ? `${message} (${codes.join(', ')})` : message;
}

/**
 * Sends one attempt of a delivery. `attemptAt` is the attempt's time (its `webhook-timestamp`).
 *
 * @example
 *   const outcome = await deliverWebhook(fetch, { url, secret, messageId, payload }, { attemptAt: new Date() });
 *   if (outcome.ok) console.log('delivered');
 */
export async function deliverWebhook(
  fetchFn: FetchLike,
  delivery: { url: string; secret: string; messageId: string; payload: unknown },
  options: { attemptAt: Date; timeoutMs?: number },
): Promise<AttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const body = JSON.stringify(delivery.payload);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'gcrs-webhooks/1',
    ...webhookHeaders(delivery.secret, delivery.messageId, options.attemptAt, body),
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: Response;
  try {
    // Redirects are not followed: a receiver that moved must be re-registered, not guessed at.
    response = await fetchFn(delivery.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const refusal = refusalOf(error);
    // A refusal says so, not "fetch failed": the merchant sees it in the delivery log.
    if (refusal) return { ok: false, statusCode: null, error: `Refused before connecting: ${refusal.message}`, durationMs: elapsed(), refused: true };
    return { ok: false, statusCode: null, error: describeError(error, timeoutMs), durationMs: elapsed() };
  }
  // The answer's body is not used; releasing it frees the connection.
  await response.body?.cancel().catch(() => {});
  const durationMs = elapsed();
  const statusCode = response.status;
  if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, durationMs };
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), new Date(options.attemptAt.getTime() + durationMs));
  return {
    ok: false,
    statusCode,
    error: `Receiver answered ${statusCode}`,
    durationMs,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(statusCode === 410 ? { gone: true } : {}),
  };
}
