/**
 * The platform's webhook signature: base64 of HMAC-SHA256 over the raw request body, keyed
 * with the platform app secret (CONTRACT "Platform orders").
 */
import { hmacMatches, hmacSha256 } from '../http/hmac.ts';

/**
 * The signature the platform sends for `body`.
 *
 * @example
 *   signPlatformBody(Buffer.from('{}'), 'secret'); // 'base64…='
 */
export function signPlatformBody(body: Buffer | string, secret: string): string {
  return hmacSha256(secret, body).toString('base64');
}

/**
 * Whether `signature` (the header value) is the HMAC of `body`; constant-time in the
 * signature's content, false for a missing or malformed header.
 *
 * @example
 *   verifyPlatformSignature(raw, request.headers['x-platform-hmac-sha256'], secret);
 */
export function verifyPlatformSignature(body: Buffer, signature: string | string[] | undefined, secret: string): boolean {
  return hmacMatches(signature, hmacSha256(secret, body), 'base64');
}
