/**
 * The platform's app proxy, as the stand-in plays it: `https://<shop>/apps/gifts/<path>` is
 * forwarded to `{service}/proxy/<path>` with the query parameters `shop`,
 * `logged_in_customer_id`, `path_prefix`, `timestamp` and `signature` added (CONTRACT
 * "Storefront", 1), signed by the project's one app-proxy signer (`src/platform/signatures.ts`,
 * pinned there to the platform's published examples).
 */
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { signAppProxyQuery } from '../../src/platform/signatures.ts';

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
  const mode = options.signing();
  // The shopper's own query parameters come along (and are signed); the platform's own win.
  const signed = new URLSearchParams(
    signAppProxyQuery(
      url.searchParams,
      {
        shop: options.shopDomain,
        loggedInCustomerId: customerId === null ? '' : String(customerId),
        pathPrefix: options.pathPrefix,
        timestamp: Math.floor(options.now() / 1000) - (mode === 'stale-timestamp' ? 301 : 0),
      },
      options.appSecret,
    ),
  );
  const signature = signed.get('signature') ?? '';
  if (mode === 'unsigned') signed.delete('signature');
  if (mode === 'bad-signature') signed.set('signature', signature.replace(/^./, (c) => (c === '0' ? '1' : '0')));

  const target = new URL(`/proxy${subpath}?${signed.toString()}`, options.serviceUrl);
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
