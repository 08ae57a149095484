/**
 * How `/storefront/v1/*` finds its shop (CONTRACT "Storefront", 2.): a publishable token in
 * `X-Storefront-Token`, the request's `Origin` among the token's allowed origins, then the
 * (shop, client) window.
 *
 * CORS, decided (docs/storefront-api.md "CORS"): a preflight cannot carry the token, so it is
 * answered for any http(s) origin (the answer grants nothing by itself); the real request is
 * where the token is checked: from an origin the token does not allow it is a 403 without
 * `Access-Control-Allow-Origin`, so the page cannot read it. A request without `Origin` is
 * not a browser's cross-origin call (a server rendering a headless storefront) and passes on
 * the token alone: outside a browser `Origin` is whatever the caller writes anyway.
 */
import type { FastifyReply } from 'fastify';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { ShopResolver, ShopScopedRoute } from '../http/shop-routes.ts';
import { rememberStorefrontCaller } from './caller.ts';
import { limitStorefrontClient } from './client-limit.ts';
import type { StorefrontLimitDeps } from './client-limit.ts';
import type { StorefrontAuth } from './auth-cache.ts';

export const STOREFRONT_TOKEN_HEADER = 'x-storefront-token';

/** What a browser script may read of a storefront response besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = 'ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id';
/** What a storefront request may send besides the safelisted headers. */
const ALLOWED_HEADERS = 'X-Storefront-Token, Content-Type, If-None-Match';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** An `Origin` a token could allow: http(s), a host, an optional port, nothing more. */
const ORIGIN = /^https?:\/\/[^\s/?#@]+$/;

/**
 * The headers of an answer to `origin` (real request): CORS for that origin only.
 *
 * @example
 *   reply.headers(corsHeadersFor('https://shop.example.com'));
 */
export function corsHeadersFor(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS };
}

/**
 * Answers a preflight of a storefront route: 204, and for an http(s) `Origin` the CORS grant
 * of `methods` (no credentials: the storefront routes use no cookies).
 *
 * @example
 *   scope.options('/storefront/v1/rules', async (request, reply) => answerPreflight(request.headers.origin, ['GET'], reply));
 */
export function answerPreflight(origin: string | undefined, methods: readonly string[], reply: FastifyReply): FastifyReply {
  reply.header('Allow', [...methods, 'OPTIONS'].join(', '));
  if (origin !== undefined && ORIGIN.test(origin)) {
    reply.headers({
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': methods.join(', '),
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
    });
  }
  return reply.code(204).send();
}

/**
 * The resolver of the storefront-token mount.
 *
 * @example
 *   mountRoutes(app, routes, { shopPrefix: '/storefront/v1', trigger: 'storefront', resolveShop: createStorefrontTokenResolver(deps) });
 */
export function createStorefrontTokenResolver(deps: StorefrontLimitDeps & { auth: Pick<StorefrontAuth, 'verifyToken'> }): ShopResolver<ShopScopedRoute> {
  return async (request, reply) => {
    const header = request.headers[STOREFRONT_TOKEN_HEADER];
    const token = typeof header === 'string' ? header.trim() : undefined;
    const verified = token === undefined || token === '' ? undefined : await deps.auth.verifyToken(token);
    if (!verified) throw unauthorized();
    const { shop } = verified;
    request.log = request.log.child({ shopId: shop.id, tokenPrefix: verified.prefix });
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!verified.allowedOrigins.includes(origin)) {
        throw forbidden('Origin not allowed', 'This storefront token does not allow requests from this origin');
      }
      // Before the limiter: a 429 to an allowed page is readable, with its Retry-After.
      reply.headers(corsHeadersFor(origin));
    }
    rememberStorefrontCaller(request, { via: 'token', tokenId: verified.tokenId });
    await limitStorefrontClient(deps, shop.id, request, reply);
    return shop;
  };
}
