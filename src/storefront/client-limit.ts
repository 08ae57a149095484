/**
 * CONTRACT "Storefront": "Storefront routes are limited per shop and per client
 * (`X-Forwarded-For` first hop, else the socket address): 120 requests a minute per client".
 * One sliding window per (shop, client) for every storefront route together, on the same
 * limiter as the API (Redis when configured), with the API's headers and 429.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from '../http/errors.ts';
import { rateLimitHeaders } from '../rate-limit/headers.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { RATE_LIMIT_POLICIES, rateLimitKey } from '../rate-limit/policies.ts';

/** Longest client address kept in a limiter key; longer `X-Forwarded-For` hops are cut. */
const MAX_CLIENT_CHARS = 64;

/**
 * The client a storefront request counts against: the first hop of `X-Forwarded-For` (the
 * shopper, as the platform's proxy or the operator's load balancer reports it), else the
 * socket's address.
 *
 * @example
 *   clientAddress(request); // '203.0.113.7'
 */
export function clientAddress(request: FastifyRequest): string {
  const forwarded = request.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded[0] : forwarded;
  const first = header?.split(',')[0]?.trim();
  if (first !== undefined && first !== '') return first.slice(0, MAX_CLIENT_CHARS);
  return request.socket.remoteAddress ?? 'unknown';
}

export type StorefrontLimitDeps = { limiter: RateLimiter; rateLimitScale: number };

/**
 * Counts the request in its (shop, client) window: sets the RateLimit headers, or throws the
 * 429 with Retry-After.
 *
 * @example
 *   await limitStorefrontClient(deps, shop.id, request, reply);
 */
export async function limitStorefrontClient(
  deps: StorefrontLimitDeps,
  shopId: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const policy = RATE_LIMIT_POLICIES.storefront;
  const limit = Math.max(1, Math.round(policy.limit * deps.rateLimitScale));
  const key = rateLimitKey(shopId, `sf:${clientAddress(request)}`, policy);
  const decision = await deps.limiter.hit(key, limit, policy.windowMs);
  const headers = rateLimitHeaders(policy.name, decision, policy.windowMs / 1000);
  if (!decision.allowed) throw rateLimited({ ...headers, 'retry-after': String(decision.retryAfterSeconds) });
  reply.headers(headers);
}
