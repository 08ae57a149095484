/**
 * How the merchant admin's mount (`/app/api/v1`) finds its shop (docs/merchant-admin.md):
 *
 * 1. `Authorization: Bearer <session token>` (embedded in the platform's admin): the shop whose
 *    domain the token's `dest` names. No CSRF check: a browser never attaches it by itself.
 * 2. Else the session cookie of a login link. A state-changing request (POST/PUT/PATCH/DELETE)
 *    must come from this site (`Sec-Fetch-Site`/`Origin`) and carry the session's CSRF token in
 *    `X-CSRF-Token`; otherwise 403, before anything else is read.
 *
 * Then the shop's own rate limit (per shop and policy, the public API's numbers) and what a
 * merchant may not do on a route an operator shares (a plan or cap change).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { bearerToken, secretsEqual } from '../http/bearer.ts';
import { forbidden, rateLimited, unauthorized } from '../http/errors.ts';
import type { ShopResolver, ShopScopedRoute } from '../http/shop-routes.ts';
import { childLogger } from '../logging/child.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { rateLimitHeaderWriter } from '../rate-limit/headers.ts';
import { RATE_LIMIT_POLICIES, rateLimitKey } from '../rate-limit/policies.ts';
import type { RateLimitPolicy, RateLimitPolicyName } from '../rate-limit/policies.ts';
import type { Installer } from '../install/installer.ts';
import { getShop, getShopByDomain } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';
import { looksLikeJwt, verifySessionToken } from './session-token.ts';
import { findSession } from './sessions.ts';

export const SESSION_COOKIE = 'gcrs_admin_session';
export const CSRF_HEADER = 'x-csrf-token';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How a request of the mount was signed in; the session route reports it. */
export type AppSignIn = { via: 'session-token' } | { via: 'cookie'; session: string };

const signIns = new WeakMap<FastifyRequest, AppSignIn>();

/** How `request` was signed in, once the resolver has accepted it. */
export const signInOf = (request: FastifyRequest): AppSignIn | undefined => signIns.get(request);

/** The CSRF token of a cookie session: derived from the session secret, which only the cookie holds. */
export const csrfTokenOf = (session: string): string => createHash('sha256').update(`csrf\0${session}`).digest('base64url');

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Refuses a cross-site or token-less state-changing request of a cookie session (403). A
 * browser sends `Sec-Fetch-Site` and, on POST, `Origin`; either naming another site is refused
 * even with a token, and the token is required whatever the headers say.
 */
function assertSameSite(request: FastifyRequest, session: string, publicOrigin: string): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw forbidden('Cross-site request refused');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicOrigin && origin !== requestOrigin(request)) throw forbidden('Cross-site request refused');
  const token = request.headers[CSRF_HEADER];
  if (typeof token !== 'string' || !secretsEqual(token, csrfTokenOf(session))) {
    throw forbidden('Missing or wrong CSRF token', 'Send the X-CSRF-Token that GET /app/api/v1/session returns');
  }
}

/** The origin the request was addressed to (its Host header), for a service reached by another name than PUBLIC_URL. */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Operator-only parts of a route a merchant shares: 403 before the handler runs. */
function assertMerchantMay(route: ShopScopedRoute, body: unknown): void {
  if (route.operationId !== 'updateShop' || typeof body !== 'object' || body === null) return;
  for (const field of ['plan', 'limits']) {
    if (field in body) throw forbidden(`Only the operator changes a shop's ${field}`);
  }
}

export type AppResolverDeps = {
  db: Database;
  limiter: RateLimiter;
  rateLimitScale: number;
  appKey: string | undefined;
  appSecret: string | undefined;
  publicUrl: string;
  now: () => Date;
  /** Installs a platform shop that is not installed yet (docs/install.md); without it, unknown shops are 401. */
  installer?: Installer;
};

export function createAppSessionResolver(deps: AppResolverDeps): ShopResolver<ShopScopedRoute> {
  const publicOrigin = new URL(deps.publicUrl).origin;
  const counters = new Map<RateLimitPolicyName, { policy: RateLimitPolicy; limit: number; headers: ReturnType<typeof rateLimitHeaderWriter> }>();
  for (const [name, policy] of Object.entries(RATE_LIMIT_POLICIES) as Array<[RateLimitPolicyName, (typeof RATE_LIMIT_POLICIES)[RateLimitPolicyName]]>) {
    const limit = Math.max(1, Math.round(policy.limit * deps.rateLimitScale));
    counters.set(name, { policy, limit, headers: rateLimitHeaderWriter(policy.name, limit, policy.windowMs / 1000) });
  }

  async function signIn(request: FastifyRequest): Promise<{ shop: ShopRecord; signIn: AppSignIn }> {
    const bearer = bearerToken(request.headers.authorization);
    if (bearer !== undefined) {
      if (deps.appKey === undefined || deps.appSecret === undefined || !looksLikeJwt(bearer)) throw unauthorized();
      const verified = await verifySessionToken(bearer, { appKey: deps.appKey, appSecret: deps.appSecret, nowMs: deps.now().getTime() });
      if (!verified) throw unauthorized();
      const shop = deps.installer ? await deps.installer.shopForSessionToken(verified.shopDomain, bearer) : await getShopByDomain(deps.db, verified.shopDomain);
      if (!shop) throw unauthorized();
      return { shop, signIn: { via: 'session-token' } };
    }
    const session = cookieValue(request.headers.cookie, SESSION_COOKIE);
    const found = session === undefined ? undefined : await findSession(deps.db, session, deps.now());
    const shop = found && (await getShop(deps.db, found.shopId));
    if (!session || !shop) throw unauthorized();
    if (UNSAFE_METHODS.has(request.method)) assertSameSite(request, session, publicOrigin);
    return { shop, signIn: { via: 'cookie', session } };
  }

  return async (request: FastifyRequest, reply: FastifyReply, route: ShopScopedRoute) => {
    const { shop, signIn: how } = await signIn(request);
    signIns.set(request, how);
    request.log = childLogger(request.log, { shopId: shop.id, app: how.via });
    assertMerchantMay(route, request.body);
    const counter = counters.get(route.rateLimit ?? 'default');
    if (!counter) throw new Error(`no rate limit policy ${route.rateLimit ?? 'default'}`);
    const decision = await deps.limiter.hit(rateLimitKey(shop.id, 'app', counter.policy), counter.limit, counter.policy.windowMs);
    const headers = counter.headers(decision);
    if (!decision.allowed) throw rateLimited(headers);
    reply.headers(headers);
    return shop;
  };
}
