/**
 * How `/api/v1` finds its shop (SPEC "Authentication", "Limits"): a Bearer API key, the
 * Scale plan, then the key's sliding window for the route's rate-limit row. The order
 * matters: a request that is not the shop's own is never counted against its limits (a key
 * served from memory is counted in the round trip that confirms it; key-cache.ts says why
 * that is still only the shop's own).
 */
import { bearerToken } from '../http/bearer.ts';
import { planRequired, rateLimited, unauthorized } from '../http/errors.ts';
import type { ShopResolver } from '../http/shop-routes.ts';
import { childLogger } from '../logging/child.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { rateLimitHeaderWriter } from '../rate-limit/headers.ts';
import { RATE_LIMIT_POLICIES, rateLimitKey } from '../rate-limit/policies.ts';
import type { RateLimitPolicyName } from '../rate-limit/policies.ts';
import { hasApiAccess } from '../shops/plans.ts';
import { API_KEY_CACHE_MAX_ENTRIES } from './key-cache.ts';
import type { ApiKeyVerifier, CountRequest, CountRequestNow } from './key-cache.ts';

/** Limiter keys remembered per policy (the key cache's own bound). */
const MAX_LIMITER_KEYS = API_KEY_CACHE_MAX_ENTRIES;

export function createApiKeyResolver(deps: { verifier: Pick<ApiKeyVerifier, 'authenticate' | 'authenticateNow'>; limiter: RateLimiter; rateLimitScale: number }): ShopResolver {
  // Per policy, once: the scaled limit, the limiter call and the header writer.
  const counters = new Map<RateLimitPolicyName, { count: CountRequest; countNow: CountRequestNow | undefined; headers: ReturnType<typeof rateLimitHeaderWriter> }>();
  const hitNow = deps.limiter.hitNow?.bind(deps.limiter);
  for (const [name, policy] of Object.entries(RATE_LIMIT_POLICIES) as Array<[RateLimitPolicyName, (typeof RATE_LIMIT_POLICIES)[RateLimitPolicyName]]>) {
    const limit = Math.max(1, Math.round(policy.limit * deps.rateLimitScale));
    // Each key's limiter key, built once: the same string every time, so the limiter's map
    // finds it without hashing a new one (a key id names one key of one shop, for good).
    const limiterKeys = new Map<string, string>();
    const limiterKey = (shopId: string, keyId: string): string => {
      let key = limiterKeys.get(keyId);
      if (key === undefined) {
        if (limiterKeys.size >= MAX_LIMITER_KEYS) limiterKeys.clear();
        key = rateLimitKey(shopId, keyId, policy);
        limiterKeys.set(keyId, key);
      }
      return key;
    };
    counters.set(name, {
      count: (shopId, keyId, version) => deps.limiter.hit(limiterKey(shopId, keyId), limit, policy.windowMs, version),
      countNow: hitNow && ((shopId, keyId, version, expectedVersion) => hitNow(limiterKey(shopId, keyId), limit, policy.windowMs, version, expectedVersion)),
      headers: rateLimitHeaderWriter(policy.name, limit, policy.windowMs / 1000),
    });
  }

  return async (request, reply, route) => {
    const counter = counters.get(route.rateLimit);
    if (!counter) throw new Error(`no rate limit policy ${route.rateLimit}`);
    const token = bearerToken(request.headers.authorization);
    // From memory when it can answer at once (no promise on the hot path: PGlite's versions,
    // or a live limiter lease with Redis), else with the wait.
    const auth = token === undefined ? undefined : (deps.verifier.authenticateNow(token, counter.countNow) ?? (await deps.verifier.authenticate(token, counter.count)));
    if (!auth) throw unauthorized();
    const { shop, keyId, prefix } = auth.verified;
    // The prefix identifies the key in logs; the key itself is never logged.
    request.log = childLogger(request.log, { shopId: shop.id, keyPrefix: prefix });
    if (!hasApiAccess(shop.plan)) throw planRequired();

    const decision = auth.decision ?? counter.countNow?.(shop.id, keyId, undefined, undefined) ?? (await counter.count(shop.id, keyId, undefined));
    const headers = counter.headers(decision);
    if (!decision.allowed) throw rateLimited(headers);
    reply.headers(headers);
    return shop;
  };
}
