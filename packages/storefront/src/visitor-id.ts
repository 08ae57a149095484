/**
 * Sticky experiment assignment (CONTRACT "Storefront"): a visitor keeps one random id in a
 * first-party cookie, and the engine hashes it with the experiment id.
 */

export const VISITOR_COOKIE = '_svc_vid';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;
const VALID_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * A cookie's value from a `document.cookie` string, or undefined.
 *
 * @example readCookie('a=1; _svc_vid=abc', '_svc_vid') // 'abc'
 */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A new visitor id: 32 hex characters from `randomBytes` (crypto.getRandomValues in a browser). */
export function newVisitorId(randomBytes: (length: number) => Uint8Array): string {
  return Array.from(randomBytes(16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The visitor id to use and the cookie to (re)write: the cookie's id when it holds a valid
 * one (so the assignment stays), else a new id. The cookie is rewritten every time so that
 * it lives a year after the last visit.
 *
 * @example visitorIdentity('', randomBytes, true).cookie // '_svc_vid=…; Path=/; Max-Age=31536000; SameSite=Lax; Secure'
 */
export function visitorIdentity(cookies: string, randomBytes: (length: number) => Uint8Array, secure: boolean): { visitorId: string; cookie: string } {
  const existing = readCookie(cookies, VISITOR_COOKIE);
  const visitorId = existing !== undefined && VALID_ID.test(existing) ? existing : newVisitorId(randomBytes);
  const cookie = `${VISITOR_COOKIE}=${visitorId}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
  return { visitorId, cookie };
}
