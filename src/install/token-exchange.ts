/**
 * The token exchange (CONTRACT part three "Install: token exchange") through the platform's
 * official library: `@shopify/shopify-api` `auth.tokenExchange` with
 * `RequestedTokenType.OfflineAccessToken` POSTs the session token to
 * `https://<shop>/admin/oauth/access_token` and answers a session holding the offline token.
 *
 * Pointing it at PLATFORM_ADMIN_API_URL: the library sends every request through its runtime's
 * abstract fetch (`setAbstractFetchFunc` of `@shopify/shopify-api/runtime`, set by the Node
 * adapter to the global fetch at import). We set it once to a fetch that looks up the current
 * exchange's redirect in an AsyncLocalStorage: inside `exchangeSessionToken` a URL
 * `https://<shop>/…` becomes `<PLATFORM_ADMIN_API_URL>/…` (and a test's injected fetch is used);
 * anywhere else the global fetch runs untouched. So two apps of one process (the tests) never
 * see each other's stand-in.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type ExchangeOptions = {
  appKey: string;
  appSecret: string;
  /** PLATFORM_ADMIN_API_URL: replaces `https://<shop>` of the token endpoint. */
  adminApiUrl: string | undefined;
  fetch?: typeof fetch;
};

export type ExchangeResult =
  | { ok: true; accessToken: string; scope: string }
  /** The platform refused the token or the app's credentials (its 400 `error`): the merchant's session cannot install. */
  | { ok: false; refused: true; error: string }
  /** The platform did not answer (network, 5xx, 429 with `retryAfterMs`): try again later. */
  | { ok: false; refused: false; error: string; retryAfterMs?: number };

const EXCHANGE_TIMEOUT_MS = 10_000;

type Redirect = { base: string | undefined; fetch: typeof fetch };
const redirects = new AsyncLocalStorage<Redirect>();

type Api = {
  auth: { tokenExchange(params: { shop: string; sessionToken: string; requestedTokenType: string }): Promise<{ session: { accessToken?: string; scope?: string } }> };
  offline: string;
};
const apis = new Map<string, Promise<Api>>();

function redirectedFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const redirect = redirects.getStore();
  if (redirect === undefined) return fetch(url, init);
  const target = String(url);
  // The exchange runs inside the install's transaction: it may not hold it for long.
  const bounded = { ...init, signal: init?.signal ?? AbortSignal.timeout(EXCHANGE_TIMEOUT_MS) };
  return redirect.fetch(redirect.base === undefined ? target : target.replace(/^https:\/\/[^/]+/, redirect.base), bounded);
}

/** The library configured for one app's credentials, loaded at the first exchange (~100 modules). */
function platformApi(appKey: string, appSecret: string): Promise<Api> {
  const id = `${appKey}\u0000${appSecret}`;
  let api = apis.get(id);
  if (!api) {
    api = (async () => {
      await import('@shopify/shopify-api/adapters/node');
      const runtime = await import('@shopify/shopify-api/runtime');
      runtime.setAbstractFetchFunc(redirectedFetch as Parameters<typeof runtime.setAbstractFetchFunc>[0]);
      const { shopifyApi, ApiVersion, LogSeverity, RequestedTokenType } = await import('@shopify/shopify-api');
      const shopify = shopifyApi({ apiKey: appKey, apiSecretKey: appSecret, hostName: 'localhost', apiVersion: ApiVersion.October25, isEmbeddedApp: true, logger: { level: LogSeverity.Error } });
      return { auth: shopify.auth as unknown as Api['auth'], offline: RequestedTokenType.OfflineAccessToken };
    })();
    api.catch(() => apis.delete(id));
    apis.set(id, api);
  }
  return api;
}

/** The library's HttpResponseError: the platform's status and JSON body. */
type HttpFailure = { response?: { code?: number; body?: unknown; headers?: Record<string, string | string[]> } };

function failureOf(error: unknown): ExchangeResult {
  const response = (error as HttpFailure).response;
  const code = response?.code;
  const body = response?.body as { error?: unknown; error_description?: unknown } | undefined;
  if (code !== undefined && code >= 400 && code < 500 && code !== 429) {
    const reason = typeof body?.error === 'string' ? body.error : `HTTP ${code}`;
    return { ok: false, refused: true, error: reason };
  }
  const header = (response as { retryAfter?: number } | undefined)?.retryAfter ?? response?.headers?.['Retry-After'];
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  const message = code === undefined ? (error instanceof Error ? error.message : String(error)) : `HTTP ${code}`;
  return { ok: false, refused: false, error: message, ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {}) };
}

/**
 * Exchanges a session token (already verified by the caller) for the shop's offline access token.
 *
 * @example const result = await exchangeSessionToken('acme.myshopify.com', jwt, { appKey, appSecret, adminApiUrl });
 */
export async function exchangeSessionToken(shop: string, sessionToken: string, options: ExchangeOptions): Promise<ExchangeResult> {
  const api = await platformApi(options.appKey, options.appSecret);
  try {
    const { session } = await redirects.run({ base: options.adminApiUrl, fetch: options.fetch ?? fetch }, () =>
      api.auth.tokenExchange({ shop, sessionToken, requestedTokenType: api.offline }),
    );
    if (!session.accessToken) return { ok: false, refused: false, error: 'The platform answered no access_token' };
    return { ok: true, accessToken: session.accessToken, scope: session.scope ?? '' };
  } catch (error) {
    return failureOf(error);
  }
}
