/**
 * The platform's session token (CONTRACT "Merchant admin", embedded sign-in): a JWT signed
 * HS256 with PLATFORM_APP_SECRET, `aud` = PLATFORM_APP_KEY, `dest` = `https://<shop domain>`,
 * `exp`/`nbf` checked with 5 s leeway.
 *
 * A small verifier rather than the platform's library (`@shopify/shopify-api`
 * `session.decodeSessionToken`): that one fixes its clock tolerance at 10 s (the CONTRACT says
 * 5), does not check `dest`, and puts the whole token in its error message, which would reach our
 * logs. docs/merchant-admin.md "Why not the platform's library" has the details.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_TOKEN_LEEWAY_S = 5;

export type VerifiedSessionToken = { shopDomain: string; subject: string | undefined };

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodeJson(part: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** True when `text` has the three dot-separated parts of a JWT (a key or admin token never does). */
export const looksLikeJwt = (text: string): boolean => text.split('.').length === 3;

/**
 * The shop domain a valid token names, or undefined for any token that fails a check
 * (signature, algorithm, audience, `dest`, `exp`, `nbf`).
 *
 * @example
 *   verifySessionToken(jwt, { appKey, appSecret, nowMs: Date.now() }); // { shopDomain: 'shop.example.com', … }
 */
export function verifySessionToken(
  token: string,
  options: { appKey: string; appSecret: string; nowMs: number },
): VerifiedSessionToken | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const header = decodeJson(headerPart);
  if (header?.alg !== 'HS256' || !BASE64URL.test(signaturePart)) return undefined;
  const expected = createHmac('sha256', options.appSecret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;

  const payload = decodeJson(payloadPart);
  if (!payload) return undefined;
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(options.appKey)) return undefined;
  const now = options.nowMs / 1000;
  if (typeof payload.exp !== 'number' || now > payload.exp + SESSION_TOKEN_LEEWAY_S) return undefined;
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || now < payload.nbf - SESSION_TOKEN_LEEWAY_S)) return undefined;
  if (typeof payload.dest !== 'string' || !URL.canParse(payload.dest)) return undefined;
  const dest = new URL(payload.dest);
  if (dest.protocol !== 'https:' || dest.pathname !== '/' || dest.search !== '' || dest.username !== '' || dest.port !== '') return undefined;
  return { shopDomain: dest.hostname, subject: typeof payload.sub === 'string' ? payload.sub : undefined };
}

/**
 * Signs a session token as the platform does (tests and local tools).
 *
 * @example signSessionToken({ aud: appKey, dest: 'https://shop.example.com', exp, nbf }, appSecret)
 */
export function signSessionToken(payload: Record<string, unknown>, appSecret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', appSecret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}
