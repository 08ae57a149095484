/**
 * The platform's webhook signature: base64 of HMAC-SHA256 over the raw request body, keyed
 * with the platform app secret (CONTRACT "Platform orders").
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The signature the platform sends for `body`.
 *
 * @example
 *   signPlatformBody(Buffer.from('{}'), 'secret'); // 'base64…='
 */
export function signPlatformBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/**
 * Whether `signature` (the header value) is the HMAC of `body`; constant-time in the
 * signature's content, false for a missing or malformed header.
 *
 * @example
 *   verifyPlatformSignature(raw, request.headers['x-platform-hmac-sha256'], secret);
 */
export function verifyPlatformSignature(body: Buffer, signature: string | string[] | undefined, secret: string): boolean {
  if (typeof signature !== 'string') return false;
  const text = signature.trim();
  if (!BASE64.test(text)) return false;
  const given = Buffer.from(text, 'base64');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
