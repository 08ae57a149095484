/** SPEC "POST /events": ingest storefront events (rate row of 60 per minute). */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { storefrontCallerOf } from '../storefront/caller.ts';
import { ingestEvents } from './ingest.ts';
import { ingestResponseSchema, MAX_EVENTS_PER_BATCH, storefrontEventBatchSchema } from './schema.ts';
import type { StorefrontEventBatch } from './schema.ts';

/**
 * Through the app proxy the customer is the one the platform signed (`logged_in_customer_id`),
 * never the body's claim: a shopper cannot report events as another customer. Elsewhere (API key,
 * publishable token) the body's `customerId` is all there is.
 */
function withSignedCustomer(body: StorefrontEventBatch, request: FastifyRequest): StorefrontEventBatch {
  const caller = storefrontCallerOf(request);
  if (caller?.via !== 'proxy') return body;
  const { customerId: _claimed, ...rest } = body;
  return caller.customerId === undefined ? rest : { ...rest, customerId: caller.customerId };
}

/**
 * The events route, for src/routes.ts to mount on both prefixes.
 *
 * @example
 *   publicShopRoutes(ctx) // [..., ...eventRoutes(ctx)]
 */
export function eventRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'POST',
      path: '/events',
      operationId: 'ingestEvents',
      summary: 'Report storefront events',
      description:
        `1–${MAX_EVENTS_PER_BATCH} events per batch. Events naming a campaign or rule that is not this shop's, or a rule ` +
        'of another campaign, are dropped and not counted in `count`. Cart tokens are dropped when the shop does not ' +
        'collect them (`shopSettings.data.collectCartTokens`). Each accepted `gift_added` dispatches a `gift.added` webhook.',
      tag: 'Events',
      rateLimit: 'events',
      body: storefrontEventBatchSchema,
      bodyError: 'Invalid events body',
      responses: {
        200: { description: 'Stored', schema: ingestResponseSchema },
        400: { description: 'Invalid body (`issue` and `path` name the first bad field)' },
      },
      handler: async ({ shop, body, request }) => {
        const { count } = await ingestEvents(ctx.db, shop, withSignedCustomer(body, request));
        return { ok: true as const, count };
      },
    }),
  ];
}
