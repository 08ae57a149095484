/**
 * The storefront's route table (CONTRACT "Storefront"): `rules` and `events` are the public
 * API's own routes (same handlers, same payload builder, same ingest), mounted again with the
 * storefront's ways in; only `redemptions` differs, since its customer comes from the
 * signature instead of the query. Mounted by mount.ts under `/proxy` and `/storefront/v1`.
 */
import type { AppContext } from '../context.ts';
import { eventRoutes } from '../events/routes.ts';
import { notFound } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { redemptionsResponseSchema } from '../redemptions/schema.ts';
import { presentRedemptions, REDEMPTIONS_CACHE_CONTROL } from '../redemptions/routes.ts';
import { listRedemptions } from '../redemptions/store.ts';
import { rulesRoutes } from '../rules/routes.ts';
import { storefrontCallerOf } from './caller.ts';

/** The public route `operationId` names, or a startup error: the table must not drift silently. */
function publicRoute(routes: readonly ShopRoute[], operationId: string): ShopRoute {
  const route = routes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`storefront: no public route ${operationId}`);
  return route;
}

/**
 * `GET redemptions` of the app proxy: the signed customer's own records; an anonymous shopper
 * has none. (On the token mount it does not exist: a headless page has no signed customer.)
 */
function customerRedemptionsRoute(ctx: AppContext): ShopRoute {
  return defineShopRoute({
    method: 'GET',
    path: '/redemptions',
    operationId: 'listCustomerRedemptions',
    summary: "The signed-in customer's redemption counts",
    tag: 'Storefront',
    rateLimit: 'storefront',
    responses: {
      200: { description: 'The redemptions', schema: redemptionsResponseSchema, headers: { 'Cache-Control': REDEMPTIONS_CACHE_CONTROL } },
    },
    handler: async ({ shop, request, reply }) => {
      const caller = storefrontCallerOf(request);
      // Only the proxy mount serves this route; any other caller is a wiring mistake.
      if (caller?.via !== 'proxy') throw notFound('Route');
      reply.header('Cache-Control', REDEMPTIONS_CACHE_CONTROL);
      if (caller.customerId === undefined) return { redemptions: [] };
      return presentRedemptions(await listRedemptions(ctx.db, shop.id, caller.customerId));
    },
  });
}

/**
 * The storefront routes of each way in.
 *
 * @example
 *   const { proxy, token } = storefrontRoutes(ctx); // proxy: rules, events, redemptions; token: rules, events
 */
export function storefrontRoutes(ctx: AppContext): { proxy: ShopRoute[]; token: ShopRoute[] } {
  const shared = [publicRoute(rulesRoutes(ctx), 'getRules'), publicRoute(eventRoutes(ctx), 'ingestEvents')];
  return { proxy: [...shared, customerRedemptionsRoute(ctx)], token: shared };
}
