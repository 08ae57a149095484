/**
 * Who is calling a storefront route, beyond the shop: the resolvers (proxy-auth.ts,
 * token-auth.ts) record it here, and the few handlers that need it (redemptions) read it.
 * Kept beside the request rather than in the shared route input, because only the
 * storefront's ways in know a customer.
 */
import type { FastifyRequest } from 'fastify';

export type StorefrontCaller =
  /** Through the platform's app proxy: the customer is `logged_in_customer_id`, trusted because it is signed. */
  | { via: 'proxy'; customerId: string | undefined }
  /** With a publishable token: a headless storefront, no customer the service can trust. */
  | { via: 'token'; tokenId: string };

const callers = new WeakMap<FastifyRequest, StorefrontCaller>();

export function rememberStorefrontCaller(request: FastifyRequest, caller: StorefrontCaller): void {
  callers.set(request, caller);
}

/**
 * The storefront caller of a request that passed a storefront resolver, else undefined.
 *
 * @example
 *   const caller = storefrontCallerOf(request); // { via: 'proxy', customerId: '42' }
 */
export function storefrontCallerOf(request: FastifyRequest): StorefrontCaller | undefined {
  return callers.get(request);
}
