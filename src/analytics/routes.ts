/** SPEC "GET /analytics": daily stats from the rollup tables (rate row of 30 per minute). */
import type { AppContext } from '../context.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { presentAnalytics } from './present.ts';
import { analyticsQuerySchema, analyticsResponseSchema, MAX_RANGE_DAYS } from './schema.ts';
import { readAnalytics } from './store.ts';

/**
 * The analytics route, for src/routes.ts to mount on both prefixes.
 *
 * @example
 *   publicShopRoutes(ctx) // [..., ...analyticsRoutes(ctx)]
 */
export function analyticsRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'GET',
      path: '/analytics',
      operationId: 'getAnalytics',
      summary: 'Daily order and gift statistics',
      description:
        `\`from\` and \`to\` are inclusive dates in the shop's timezone, at most ${MAX_RANGE_DAYS} days apart counting both. ` +
        'Amounts are decimal units of the shop base currency with its own minor digits (JPY 0, USD 2). ' +
        '`campaignId` narrows `campaignStats` only; `dailyTotals` and `summary` stay shop-wide.',
      tag: 'Analytics',
      rateLimit: 'analytics',
      query: analyticsQuerySchema,
      responses: {
        200: { description: 'The statistics', schema: analyticsResponseSchema },
        400: { description: 'Missing or malformed dates, from after to, or a range over 90 days' },
      },
      handler: async ({ shop, query }) => {
        const rollups = await readAnalytics(ctx.db, shop.id, query);
        return presentAnalytics(rollups, query, shop.currency);
      },
    }),
  ];
}
