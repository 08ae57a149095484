/**
 * How `/proxy/*` finds its shop (CONTRACT "Storefront", 1.): the platform's app-proxy
 * signature over the query string, the shop whose domain is `shop`, the customer
 * `logged_in_customer_id`, then the (shop, client) window. Nothing of an unsigned request
 * is read, not even which shop it names, and it is never counted against a shop.
 */
import { isStorableText } from '@gcrs/engine';
import { notFound, unauthorized } from '../http/errors.ts';
import type { ShopResolver, ShopScopedRoute } from '../http/shop-routes.ts';
import type { StorefrontSeen } from '../onboarding/storefront-seen.ts';
import { verifyAppProxyQuery } from '../platform/signatures.ts';
import type { StorefrontAuth } from './auth-cache.ts';
import { rememberStorefrontCaller } from './caller.ts';
import { limitStorefrontClient } from './client-limit.ts';
import type { StorefrontLimitDeps } from './client-limit.ts';

const ISSUES = {
  missing_signature: 'The app-proxy signature is missing',
  bad_signature: 'The app-proxy signature does not match the query',
  bad_timestamp: 'The app-proxy timestamp is missing or not Unix seconds',
  stale_timestamp: 'The app-proxy timestamp is more than 300 s away from now',
  missing_shop: 'The signed query names no shop',
} as const;

/** The platform's customer ids are digits; anything else signed is treated as anonymous. */
const CUSTOMER_ID = /^\d{1,32}$/;

export type AppProxyResolverDeps = StorefrontLimitDeps & {
  auth: Pick<StorefrontAuth, 'shopByDomain'>;
  /** PLATFORM_APP_SECRET. */
  secret: string;
  now: () => Date;
  /** Notes the shop's storefront as seen: the app embed is on (onboarding/storefront-seen.ts). */
  seen?: StorefrontSeen;
};

/**
 * The resolver of the app-proxy mount.
 *
 * @example
 *   mountRoutes(app, routes, { shopPrefix: '/proxy', trigger: 'storefront', resolveShop: createAppProxyResolver(deps) });
 */
export function createAppProxyResolver(deps: AppProxyResolverDeps): ShopResolver<ShopScopedRoute> {
  return async (request, reply) => {
    const at = request.url.indexOf('?');
    const query = at === -1 ? '' : request.url.slice(at + 1);
    const verified = verifyAppProxyQuery(query, deps.secret, Math.floor(deps.now().getTime() / 1000));
    if (!verified.valid) throw unauthorized(ISSUES[verified.reason]);
    const shop = isStorableText(verified.shop) ? await deps.auth.shopByDomain(verified.shop) : undefined;
    // Signed by the platform, so naming a shop this service does not serve is the operator's
    // setup to fix, not a probe: 404 says so.
    if (!shop) throw notFound('Shop');
    const customerId = verified.customerId !== undefined && CUSTOMER_ID.test(verified.customerId) ? verified.customerId : undefined;
    request.log = request.log.child({ shopId: shop.id, appProxy: true });
    rememberStorefrontCaller(request, { via: 'proxy', customerId });
    await limitStorefrontClient(deps, shop.id, request, reply);
    await deps.seen?.(shop.id);
    return shop;
  };
}
