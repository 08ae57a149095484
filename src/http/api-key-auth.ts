/**
 * How `/api/v1` finds its shop (SPEC "Authentication", "Limits"): a Bearer API key, the
 * Scale plan, then the key's sliding window for the route's rate-limit row. The order
 * matters: a request that is not the shop's own is never counted against its limits.
 */
import type { ApiKeyVerifier } from '../api-keys/key-cache.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { rateLimitHeaders } from '../rate-limit/headers.ts';
import { RATE_LIMIT_POLICIES, rateLimitKey } from '../rate-limit/policies.ts';
import { hasApiAccess } from '../shops/plans.ts';
import { bearerToken } from './bearer.ts';
import { planRequired, rateLimited, unauthorized } from './errors.ts';
import type { ShopResolver } from './shop-routes.ts';

export function createApiKeyResolver(deps: { verifier: Pick<ApiKeyVerifier, 'verify'>; limiter: RateLimiter; rateLimitScale: number }): ShopResolver {
  return async (request, reply, route) => {
    const token = bearerToken(request.headers.authorization);
    const verified = token === undefined ? undefined : await deps.verifier.verify(token);
    if (!verified) throw unauthorized();
    const { shop } = verified;
    // The prefix identifies the key in logs; the key itself is never logged.
    request.log = request.log.child({ shopId: shop.id, keyPrefix: verified.prefix });
    if (!hasApiAccess(shop.plan)) throw planRequired();

    const policy = RATE_LIMIT_POLICIES[route.rateLimit];
    const limit = Math.max(1, Math.round(policy.limit * deps.rateLimitScale));
    const decision = await deps.limiter.hit(rateLimitKey(verified.keyId, policy), limit, policy.windowMs);
    const headers = rateLimitHeaders(policy.name, decision, policy.windowMs / 1000);
    if (!decision.allowed) throw rateLimited({ ...headers, 'Retry-After': String(decision.retryAfterSeconds) });
    reply.headers(headers);
    return shop;
  };
}
