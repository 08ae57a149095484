/**
 * The platform's session token (CONTRACT "Merchant admin", embedded sign-in): a JWT signed
 * HS256 with PLATFORM_APP_SECRET, `aud` = PLATFORM_APP_KEY, `dest` = `https://<shop domain>`,
 * `exp`/`nbf` checked with 5 s leeway.
 *
 * Verified by `jose` (the JWT library the platform's own `@shopify/shopify-api` uses), called
 * directly rather than through `session.decodeSessionToken`: that wrapper fixes its clock
 * tolerance at 10 s (the CONTRACT says 5), does not check `dest`, and puts the whole token in its
 * error message, which would reach our logs. docs/merchant-admin.md "Why not the platform's
 * wrapper" has the details.
 */
import { createHmac } from 'node:crypto';
import { jwtVerify } from 'jose';

export const SESSION_TOKEN_LEEWAY_S = 5;

export type VerifiedSessionToken = { shopDomain: string; subject: string | undefined };

/** True when `text` has the three dot-separated parts of a JWT (a key or admin token never does). */
export const looksLikeJwt = (text: string): boolean => text.split('.').length === 3;

/**
 * The shop domain a valid token names, or undefined for any token that fails a check
 * (signature, algorithm, audience, `dest`, `exp`, `nbf`). jose refuses every algorithm but
 * HS256 (`none` included), compares the signature in constant time and checks `aud`, `exp`
 * (required) and `nbf` against `nowMs` with the leeway; `dest` is checked here.
 *
 * @example
 *   await verifySessionToken(jwt, { appKey, appSecret, nowMs: Date.now() }); // { shopDomain: 'shop.example.com', … }
 */
export async function verifySessionToken(
  token: string,
  options: { appKey: string; appSecret: string; nowMs: number },
): Promise<VerifiedSessionToken | undefined> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(options.appSecret), {
      algorithms: ['HS256'],
      audience: options.appKey,
      clockTolerance: SESSION_TOKEN_LEEWAY_S,
      currentDate: new Date(options.nowMs),
      requiredClaims: ['exp'],
    }));
  } catch {
    // jose's messages may quote claims; none of it is logged, the caller answers 401.
    return undefined;
  }
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
