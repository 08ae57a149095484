/**
 * HMAC-SHA256 and its constant-time check: the primitives every signature the service checks
 * is made of (the platform's webhooks, app proxy and session tokens: platform/signatures.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 of `message` keyed with `secret`.
 *
 * @example
 *   hmacSha256('secret', 'a=1').toString('hex'); // 64 hex digits
 */
export function hmacSha256(secret: string, message: string | Buffer): Buffer {
  return createHmac('sha256', secret).update(message).digest();
}

/**
 * Whether `given` (text in `encoding`) is exactly `expected`, in constant time in the
 * content; false for text that is not well-formed in that encoding.
 *
 * @example
 *   hmacMatches(request.headers['x-shopify-hmac-sha256'], hmacSha256(secret, raw), 'base64');
 */
export function hmacMatches(given: unknown, expected: Buffer, encoding: 'hex' | 'base64' | 'base64url'): boolean {
  if (typeof given !== 'string') return false;
  const text = given.trim();
  const wellFormed =
    encoding === 'hex' ? /^[0-9a-fA-F]*$/.test(text) && text.length % 2 === 0
    : encoding === 'base64' ? /^[A-Za-z0-9+/]+={0,2}$/.test(text)
    : /^[A-Za-z0-9_-]+$/.test(text);
  if (!wellFormed) return false;
  const bytes = Buffer.from(text, encoding);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
