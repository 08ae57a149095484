/**
 * The platform's app proxy, as the stand-in plays it: `https://<shop>/apps/gifts/<path>` is
 * forwarded to `{service}/proxy/<path>` with the query parameters `shop`,
 * `logged_in_customer_id`, `path_prefix`, `timestamp` and `signature` added (CONTRACT
 * "Storefront", 1). The signature is written here from the platform's documented rule, not
 * borrowed from the service's verifier, so the browser tests check one against the other.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The platform's app-proxy signature: hex HMAC-SHA256, keyed with the app secret, of every
 * query parameter but `signature`, sorted by name, each written `name=value` (several values of
 * one name joined by `,`), concatenated with nothing between them.
 *
 * @example
 *   signAppProxyQuery([['shop', 'a.myshopify.com'], ['timestamp', '1317327555']], 'hush'); // 64 hex characters
 */
export function signAppProxyQuery(params: Iterable<[string, string]>, secret: string): string {
  const byName = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (name === 'signature') continue;
    byName.set(name, [...(byName.get(name) ?? []), value]);
  }
  const message = [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, values]) => `${name}=${values.join(',')}`)
    .join('');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** How the stand-in signs, changeable at run time so tests can see what a forged request gets. */
export type ProxySigning = 'valid' | 'bad-signature' | 'stale-timestamp' | 'unsigned';

export type AppProxyOptions = {
  serviceUrl: string;
  appSecret: string;
  shopDomain: string;
  pathPrefix: string;
  signing: () => ProxySigning;
  now: () => number;
};

/** Request headers the platform passes to the app (cookies and the shopper's session are not among them). */
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-encoding', 'content-type', 'content-length', 'if-none-match', 'if-match', 'user-agent'];
/** Response headers that reach the shopper's browser. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-encoding', 'content-length', 'etag', 'cache-control', 'vary', 'retry-after', 'x-request-id', 'last-modified'];

/**
 * Forwards one `/apps/gifts/…` request to the service, byte for byte both ways (the service
 * picks gzip or br from `Accept-Encoding`, and the answer is passed on undecoded).
 */
export function forwardToAppProxy(
  options: AppProxyOptions,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  customerId: number | null,
): void {
  const subpath = url.pathname.slice(options.pathPrefix.length) || '/';
  const query = new URLSearchParams();
  // The shopper's own query parameters come along (and are signed); the platform's own win.
  const reserved = new Set(['shop', 'logged_in_customer_id', 'path_prefix', 'timestamp', 'signature']);
  for (const [name, value] of url.searchParams) if (!reserved.has(name)) query.append(name, value);
  const mode = options.signing();
  const seconds = Math.floor(options.now() / 1000) - (mode === 'stale-timestamp' ? 301 : 0);
  query.append('shop', options.shopDomain);
  query.append('logged_in_customer_id', customerId === null ? '' : String(customerId));
  query.append('path_prefix', options.pathPrefix);
  query.append('timestamp', String(seconds));
  if (mode !== 'unsigned') {
    const signature = signAppProxyQuery(query, options.appSecret);
    query.append('signature', mode === 'bad-signature' ? signature.replace(/^./, (c) => (c === '0' ? '1' : '0')) : signature);
  }

  const target = new URL(`/proxy${subpath}?${query.toString()}`, options.serviceUrl);
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
  headers['x-forwarded-host'] = options.shopDomain;

  const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
    const outgoing: Record<string, string | string[]> = {};
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) outgoing[name] = value;
    }
    res.writeHead(answer.statusCode ?? 502, outgoing);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (res.headersSent) return res.destroy(error);
    res.writeHead(502, { 'content-type': 'text/plain' }).end('The app proxy could not reach the app.');
  });
  req.pipe(upstream);
}
