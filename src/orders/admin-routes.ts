/** Admin API: `POST /shops/:shopId/orders` (CONTRACT "Admin API", "Platform orders"). */
import type { FastifyInstance } from 'fastify';
import { shopFromPath } from '../admin/admin-auth.ts';
import type { AppContext } from '../context.ts';
import { receiveOrder } from './receive.ts';

/**
 * Adds the order route to the admin scope (token already checked by its hook).
 *
 * @example
 *   registerOrderAdminRoutes(admin, ctx); // POST /admin/v1/shops/:shopId/orders
 */
export function registerOrderAdminRoutes(admin: FastifyInstance, ctx: AppContext): void {
  admin.post('/shops/:shopId/orders', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    return receiveOrder(ctx.db, shop, request.body);
  });
}
