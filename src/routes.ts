/** Every public route, in the order the OpenAPI document lists them. */
import { campaignRoutes } from './campaigns/routes.ts';
import type { AppContext } from './context.ts';
import type { ShopRoute } from './http/shop-routes.ts';

export function publicShopRoutes(ctx: AppContext): ShopRoute[] {
  return [...campaignRoutes(ctx)];
}
