/** Admin API: `POST /shops/:shopId/orders` (CONTRACT "Admin API", "Platform orders"). */
import type { AppContext } from '../context.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { recordReceivedOrder } from './receive.ts';
import { orderResponseSchema, orderSchema } from './schema.ts';

/**
 * The order route of the admin API, the same intake as the platform's signed webhook.
 *
 * @example
 *   orderAdminRoutes(ctx); // POST /admin/v1/shops/:shopId/orders
 */
export function orderAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/orders',
      operationId: 'receiveOrder',
      summary: 'Record a platform order (gift lines count as redemptions)',
      description: 'Idempotent by order id: a repeat answers `duplicate: true` and records nothing.',
      tag: 'Orders',
      body: orderSchema,
      bodyError: 'Invalid order body',
      responses: {
        200: { description: 'Recorded, or already recorded', schema: orderResponseSchema },
        400: { description: '`{ "error": "Invalid order body", issue, path }`, also for a currency other than the shop\'s' },
      },
      handler: async ({ shop, body }) => recordReceivedOrder(ctx, shop, body),
    }),
  ];
}
