/**
 * The platform's app proxy signature (CONTRACT "Storefront", 1.), keyed with
 * PLATFORM_APP_SECRET; the HMAC primitives it and the platform's other signatures (webhooks'
 * base64 HMAC of the body, session tokens' HS256) are made of are in http/hmac.ts.
 *
 * Why not the platform's Node library (`shopify.utils.validateHmac(query, { signator:
 * 'appProxy' })`): it builds the same message, but accepts a timestamp only within 90 s of
 * now and throws for a stale one, where CONTRACT says 300 s and a 401; it also needs the
 * whole library configured (host, scopes, API version) for one HMAC. The message rules are
 * a few lines, written here to the letter of CONTRACT, with the signer beside the verifier
 * so that tests and the stand-in storefront sign exactly as the platform does.
 */
import { hmacMatches, hmacSha256 } from '../http/hmac.ts';

/** CONTRACT: "a `timestamp` more than 300 s away from now → 401". */
export const APP_PROXY_MAX_SKEW_SECONDS = 300;

/** Query parameters as the proxy sees them: each name with every value it was sent with, in order. */
export type QueryValues = ReadonlyMap<string, readonly string[]>;

/**
 * Groups a query string's parameters by name (values decoded, in order of appearance).
 *
 * @example
 *   queryValues('?ids=1&ids=2&shop=a').get('ids'); // ['1', '2']
 */
export function queryValues(search: string | URLSearchParams): Map<string, string[]> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const grouped = new Map<string, string[]>();
  for (const [name, value] of params) {
    const values = grouped.get(name);
    if (values) values.push(value);
    else grouped.set(name, [value]);
  }
  return grouped;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The signed message of an app-proxy request, CONTRACT to the letter: "every other query
 * parameter sorted by name, each written `name=value` (several values of one name joined
 * by `,`), concatenated with nothing between them". `signature` itself is left out.
 *
 * @example
 *   appProxyMessage(queryValues('shop=a.example.com&ids=2&ids=1&timestamp=5')); // 'ids=2,1shop=a.example.comtimestamp=5'
 */
export function appProxyMessage(values: QueryValues): string {
  return [...values.keys()]
    .filter((name) => name !== 'signature')
    .sort(byCodeUnits)
    .map((name) => `${name}=${(values.get(name) ?? []).join(',')}`)
    .join('');
}

/**
 * The `signature` the platform sends for these parameters: hex HMAC-SHA256 of {@link appProxyMessage}.
 *
 * @example
 *   signAppProxyValues(queryValues('shop=a.example.com&timestamp=5'), secret); // '3f0c…' (64 hex digits)
 */
export function signAppProxyValues(values: QueryValues, secret: string): string {
  return hmacSha256(secret, appProxyMessage(values)).toString('hex');
}

/** What the platform adds to a proxied request before signing it. */
export type AppProxyForward = {
  /** The shop's domain (`shop`). */
  shop: string;
  /** Empty or absent for an anonymous shopper. */
  loggedInCustomerId?: string;
  /** The proxy's storefront prefix, e.g. `/apps/gifts`. */
  pathPrefix?: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
};

/**
 * Signs a request the way the platform forwards `https://<shop>/apps/gifts/<path>?<query>` to
 * `{base}/proxy/<path>`: the shopper's own query parameters stay, `shop`,
 * `logged_in_customer_id`, `path_prefix` and `timestamp` are set, and `signature` is added.
 * Returns the query string to append (without `?`). For tests and the stand-in storefront.
 *
 * @example
 *   const query = signAppProxyQuery('ids=1&ids=2', { shop: 'a.example.com' }, secret);
 *   await fetch(`${base}/proxy/rules?${query}`);
 */
export function signAppProxyQuery(shopperQuery: string | URLSearchParams, forward: AppProxyForward, secret: string): string {
  const params = new URLSearchParams(shopperQuery);
  for (const name of ['shop', 'logged_in_customer_id', 'path_prefix', 'timestamp', 'signature']) params.delete(name);
  params.append('shop', forward.shop);
  params.append('logged_in_customer_id', forward.loggedInCustomerId ?? '');
  params.append('path_prefix', forward.pathPrefix ?? '/apps/gifts');
  params.append('timestamp', String(forward.timestamp ?? Math.floor(Date.now() / 1000)));
  params.append('signature', signAppProxyValues(queryValues(params), secret));
  return params.toString();
}

/** The outcome of {@link verifyAppProxyQuery}: expected refusals are values (STYLE "Errors and outcomes"). */
export type AppProxyVerification =
  | { valid: true; shop: string; customerId: string | undefined; timestamp: number }
  | { valid: false; reason: 'missing_signature' | 'bad_signature' | 'bad_timestamp' | 'stale_timestamp' | 'missing_shop' };

const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * Checks an app-proxy request's query string: one `signature` that is the hex HMAC of the
 * other parameters (compared in constant time), then one `timestamp` within 300 s of
 * `nowSeconds` either way, then one non-empty `shop`. `logged_in_customer_id` is the customer
 * (undefined when empty: an anonymous shopper).
 *
 * @example
 *   const result = verifyAppProxyQuery(rawQuery, secret, Math.floor(Date.now() / 1000));
 *   if (!result.valid) throw unauthorized();
 */
export function verifyAppProxyQuery(search: string | URLSearchParams, secret: string, nowSeconds: number): AppProxyVerification {
  const values = queryValues(search);
  const signatures = values.get('signature');
  if (signatures === undefined || signatures.length !== 1) return { valid: false, reason: 'missing_signature' };
  if (!hmacMatches(signatures[0], hmacSha256(secret, appProxyMessage(values)), 'hex')) return { valid: false, reason: 'bad_signature' };

  const timestamps = values.get('timestamp');
  const timestampText = timestamps?.length === 1 ? timestamps[0] : undefined;
  if (timestampText === undefined || !UNIX_SECONDS.test(timestampText)) return { valid: false, reason: 'bad_timestamp' };
  const timestamp = Number(timestampText);
  if (Math.abs(nowSeconds - timestamp) > APP_PROXY_MAX_SKEW_SECONDS) return { valid: false, reason: 'stale_timestamp' };

  const shops = values.get('shop');
  const shop = shops?.length === 1 ? shops[0]?.trim().toLowerCase() : undefined;
  if (shop === undefined || shop === '') return { valid: false, reason: 'missing_shop' };
  const customers = values.get('logged_in_customer_id');
  const customer = customers?.length === 1 ? customers[0]?.trim() : undefined;
  return { valid: true, shop, customerId: customer === undefined || customer === '' ? undefined : customer, timestamp };
}
