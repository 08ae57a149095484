/**
 * Standard Webhooks signing, by hand (https://www.standardwebhooks.com, the reference signer is
 * ~130 lines): the signature is `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`,
 * keyed with the base64-decoded part of the `whsec_…` secret.
 */
import { createHmac, randomBytes } from 'node:crypto';

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

/** The HMAC key of a secret: the base64 after `whsec_` (a bare base64 secret is accepted too). */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * The `webhook-signature` value for one attempt.
 *
 * @example
 *   signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
 *   // 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='
 */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
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
