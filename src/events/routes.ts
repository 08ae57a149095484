/** SPEC "POST /events": ingest storefront events (rate row of 60 per minute). */
import type { AppContext } from '../context.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { ingestEvents } from './ingest.ts';
import { ingestResponseSchema, MAX_EVENTS_PER_BATCH, storefrontEventBatchSchema } from './schema.ts';

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
      handler: async ({ shop, body }) => {
        const { count } = await ingestEvents(ctx.db, shop, body);
        return { ok: true as const, count };
      },
    }),
  ];
}
