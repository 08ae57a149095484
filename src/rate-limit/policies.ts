/**
 * The rate limit policies of SPEC.md "Limits", in one table so routes, limiter keys and the
 * RateLimit-Policy header all use the same numbers:
 *
 *   | Rate window | sliding 60 seconds, per API key |
 *   | Most read/write endpoints (campaigns, campaign item, rules, widgets, redemptions, enable,
 *   |   disable, schedule) | 120 per minute |
 *   | `/analytics` | 30 per minute |
 *   | `/events` (POST) | 60 per minute |
 *   | `/campaigns/import` | 10 per minute |
 *
 * and of CONTRACT "Storefront": "Storefront routes are limited per shop and per client
 * (`X-Forwarded-For` first hop, else the socket address): 120 requests a minute per client".
 */

export interface RateLimitPolicy {
  /** The policy identifier sent in the RateLimit and RateLimit-Policy headers. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

const MINUTE_MS = 60_000;

export const RATE_LIMIT_POLICIES = {
  default: { name: 'default', limit: 120, windowMs: MINUTE_MS },
  analytics: { name: 'analytics', limit: 30, windowMs: MINUTE_MS },
  events: { name: 'events', limit: 60, windowMs: MINUTE_MS },
  import: { name: 'import', limit: 10, windowMs: MINUTE_MS },
  storefront: { name: 'storefront', limit: 120, windowMs: MINUTE_MS },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitPolicyName = keyof typeof RATE_LIMIT_POLICIES;

/**
 * The limiter key of a subject (an API key, a storefront client) of a shop under a policy: each
 * policy has its own window per subject.
 *
 * The key starts with the shop's Redis Cluster hash tag, the one of the shop's version and lease
 * fence keys (cache/shop-versions.ts): the limiter's script reads those in the same call, and on
 * a cluster every key of a script must be in one slot. Redis hashes the first `{…}` of a key, so
 * a brace in the subject (a client address comes from a header) cannot move it.
 *
 * @example
 * rateLimitKey('shp_1', 'key_123', RATE_LIMIT_POLICIES.analytics); // '{shp_1}:key_123:analytics'
 */
export function rateLimitKey(shopId: string, subject: string, policy: RateLimitPolicy): string {
  return `{${shopId}}:${subject}:${policy.name}`;
}
