/**
 * Response headers for a rate limit decision, in the form of the IETF draft
 * draft-ietf-httpapi-ratelimit-headers (-10), plus Retry-After on a refusal (SPEC.md "Errors":
 * "429 | rate limit exceeded; `Retry-After` header in seconds").
 *
 * Why these two fields: the draft replaced the older RateLimit-Limit / -Remaining / -Reset trio
 * with two Structured Fields (RFC 9651) lists:
 *
 *   "The "RateLimit-Policy" response header field is a non-empty List of Quota Policy Items.
 *    The Item value MUST be a String."            e.g.  RateLimit-Policy: "default";q=100;w=10
 *   "q: The REQUIRED "q" parameter indicates the quota allocated by this policy measured in
 *    quota units."  "w: The OPTIONAL "w" parameter value conveys a time window." which "MUST be
 *    a non-negative, non-zero, Integer value expressing an interval in seconds".
 *
 *   "A server uses the "RateLimit" response header field to communicate the current service
 *    limit for a quota policy"                       e.g.  RateLimit: "default";r=50;t=30
 *   "r: ... the remaining quota units", "t: ... the number of seconds until additional quota
 *    associated with the quota policy is made available", and "The server MAY arbitrarily alter
 *    the reset parameter value between subsequent requests; for example, ... to implement
 *    sliding window policies."
 *
 * `t` carries the decision's resetSeconds: the time until the whole window is empty, when the
 * full quota is certainly back. Retry-After carries the earlier time at which one slot frees.
 */
import type { RateLimitDecision } from './limiter.ts';

// A type alias, not an interface, so it is assignable to header records. Names in lower case,
// as they go on the wire: Fastify lower-cases every name it is given, and a name that changes
// costs a new string and a slower property store on every request.
export type RateLimitHeaders = {
  'ratelimit-policy': string;
  ratelimit: string;
  'retry-after'?: string;
};

/**
 * Builds the headers to set on a response governed by the policy `policyName`.
 *
 * @example
 * rateLimitHeaders('default', { allowed: true, limit: 120, remaining: 119, resetSeconds: 60 }, 60);
 * // { 'ratelimit-policy': '"default";q=120;w=60', ratelimit: '"default";r=119;t=60' }
 */
export function rateLimitHeaders(
  policyName: string,
  decision: RateLimitDecision,
  windowSeconds: number,
): RateLimitHeaders {
  return rateLimitHeaderWriter(policyName, decision.limit, windowSeconds)(decision);
}

/**
 * rateLimitHeaders for one policy and limit, with everything that does not change between
 * requests (names, escaping, RateLimit-Policy) done once: the API's hot path only formats
 * two numbers.
 *
 * @example
 * const write = rateLimitHeaderWriter('default', 120, 60);
 * write({ allowed: true, limit: 120, remaining: 119, resetSeconds: 60 }).ratelimit; // '"default";r=119;t=60'
 */
export function rateLimitHeaderWriter(
  policyName: string,
  limit: number,
  windowSeconds: number,
): (decision: RateLimitDecision) => RateLimitHeaders {
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
    throw new RangeError(`w must be a positive integer of seconds, got ${windowSeconds}`);
  }
  const name = structuredFieldString(policyName);
  const policy = `${name};q=${limit};w=${windowSeconds}`;
  const prefix = `${name};r=`;
  return (decision) => {
    const headers: RateLimitHeaders = {
      'ratelimit-policy': decision.limit === limit ? policy : `${name};q=${decision.limit};w=${windowSeconds}`,
      ratelimit: `${prefix}${decision.remaining};t=${decision.resetSeconds}`,
    };
    if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds);
    return headers;
  };
}

/**
 * Serialises a Structured Field String (RFC 9651 section 4.1.6): printable ASCII only, with
 * `"` and `\` escaped by a backslash.
 *
 * @example
 * structuredFieldString('a"b'); // '"a\\"b"'
 */
export function structuredFieldString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) {
    throw new RangeError(`a structured field string allows printable ASCII only: ${JSON.stringify(value)}`);
  }
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
