/** Every public route, in the order the OpenAPI document lists them. */
import { analyticsRoutes } from './analytics/routes.ts';
import { lifecycleRoutes } from './campaigns/lifecycle-routes.ts';
import { campaignRoutes } from './campaigns/routes.ts';
import type { AppContext } from './context.ts';
import { evaluateRoutes } from './evaluate/routes.ts';
import { eventRoutes } from './events/routes.ts';
import type { ShopRoute } from './http/shop-routes.ts';
import { redemptionRoutes } from './redemptions/routes.ts';
import { rulesRoutes } from './rules/routes.ts';
import { widgetRoutes } from './widgets/routes.ts';

export function publicShopRoutes(ctx: AppContext): ShopRoute[] {
  return [
    ...campaignRoutes(ctx),
    ...lifecycleRoutes(ctx),
    ...rulesRoutes(ctx),
    ...evaluateRoutes(ctx),
    ...widgetRoutes(ctx),
    ...redemptionRoutes(ctx),
    ...eventRoutes(ctx),
    ...analyticsRoutes(ctx),
  ];
}
