/**
 * `GET /admin/v1/shops/:shopId/data-requests` (CONTRACT part three "Compliance webhooks"): the
 * platform's `customers/data_request` deliveries with the export gathered for each, newest
 * first. Mounted for the operator and, like every admin shop route, for the merchant admin.
 */
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { dataRequests } from '../db/schema.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';

const dataRequestSchema = z.object({
  id: z.string().meta({ description: "The platform's data request id (`data_request.id`)" }),
  customerId: z.string().meta({ description: "The platform's customer id" }),
  receivedAt: z.iso.datetime(),
  export: z
    .record(z.string(), z.unknown())
    .meta({ description: 'What the service held about the customer when the request arrived: `redemptions`, `orders`, `storefrontEvents` (docs/compliance.md)' }),
});

const dataRequestsResponseSchema = z.object({ dataRequests: z.array(dataRequestSchema) });

/**
 * The compliance routes of the admin API.
 *
 * @example
 *   complianceAdminRoutes(ctx); // GET /admin/v1/shops/:shopId/data-requests
 */
export function complianceAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/data-requests',
      operationId: 'listDataRequests',
      summary: "Customers' data requests and their exports",
      description:
        'Each `customers/data_request` webhook the platform sent for the shop, newest first, with the JSON export ' +
        'gathered when it arrived, for the merchant to send to the customer. A customer redacted since has no request left.',
      tag: 'Compliance',
      responses: { 200: { description: 'The data requests', schema: dataRequestsResponseSchema } },
      handler: async ({ shop }) => {
        const rows = await ctx.db
          .select()
          .from(dataRequests)
          .where(eq(dataRequests.shopId, shop.id))
          .orderBy(desc(dataRequests.receivedAt), desc(dataRequests.id));
        return {
          dataRequests: rows.map((row) => ({ id: row.id, customerId: row.customerId, receivedAt: row.receivedAt.toISOString(), export: row.export })),
        };
      },
    }),
  ];
}
