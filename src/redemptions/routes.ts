/** SPEC "GET /redemptions": a customer's redemption counts per rule. */
import type { AppContext } from '../context.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { redemptionsQuerySchema, redemptionsResponseSchema } from './schema.ts';
import { listRedemptions } from './store.ts';
import type { RedemptionRecord } from './store.ts';

/** SPEC "Limits": Redemptions response cache, 30 seconds. */
export const REDEMPTIONS_CACHE_CONTROL = 'private, max-age=30';
const CACHE_CONTROL = REDEMPTIONS_CACHE_CONTROL;

/**
 * SPEC "Redemption record" of each stored row; the storefront's route answers the same shape.
 *
 * @example
 *   presentRedemptions(await listRedemptions(ctx.db, shop.id, '42')); // { redemptions: [...] }
 */
export function presentRedemptions(rows: readonly RedemptionRecord[]) {
  return {
    redemptions: rows.map((row) => ({
      ruleId: row.ruleId,
      campaignId: row.campaignId,
      count: row.count,
      lastRedeemedAt: row.lastRedeemedAt.toISOString(),
    })),
  };
}

/**
 * The redemptions route, for src/routes.ts to mount on both prefixes.
 *
 * @example
 *   publicShopRoutes(ctx) // [..., ...redemptionRoutes(ctx)]
 */
export function redemptionRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'GET',
      path: '/redemptions',
      operationId: 'listRedemptions',
      summary: "A customer's redemption counts",
      description:
        'One item per rule the customer received a gift of, counted once per order, most recent first. ' +
        'A customer without redemptions gets an empty list.',
      tag: 'Redemptions',
      rateLimit: 'default',
      query: redemptionsQuerySchema,
      responses: {
        200: {
          description: 'The redemptions',
          schema: redemptionsResponseSchema,
          headers: { 'Cache-Control': CACHE_CONTROL },
        },
        400: { description: '`customerId` missing or not digits only' },
      },
      handler: async ({ shop, query, reply }) => {
        const rows = await listRedemptions(ctx.db, shop.id, query.customerId);
        reply.header('Cache-Control', CACHE_CONTROL);
        return presentRedemptions(rows);
      },
    }),
  ];
}
