/**
 * Standard Webhooks signing (https://www.standardwebhooks.com) through the reference
 * `standardwebhooks` library, so our signatures are by construction what every receiver's
 * verifier computes: `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with
 * the base64-decoded part of the `whsec_…` secret. Only secret generation is ours (the
 * library has none).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';

/**
 * A new endpoint secret: `whsec_` and the base64 of 24 random bytes.
 *
 * @example
 *   newWebhookSecret(); // 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
 */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` value for one attempt. The library takes a `whsec_` secret or a bare
 * base64 one alike.
 *
 * @example
 *   signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
 *   // 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='
 */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  return new Webhook(secret).sign(messageId, new Date(timestampSeconds * 1000), body);
}

/**
 * The three Standard Webhooks headers of one attempt: the id is the same on every retry, the
 * timestamp is the attempt's own (Unix seconds).
 *
 * @example
 *   const headers = webhookHeaders(secret, 'msg_1', new Date(), body);
 *   await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 */
export function webhookHeaders(
  secret: string,
  messageId: string,
  attemptAt: Date,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const timestamp = Math.floor(attemptAt.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, messageId, timestamp, body),
  };
}
