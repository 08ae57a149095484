/**
 * Every admin-only route, in the order the admin OpenAPI document lists them. The public
 * routes join them on the admin API through the shop mount (`/admin/v1/shops/:shopId`).
 */
import { apiKeyAdminRoutes } from './api-keys/admin-routes.ts';
import { billingAdminRoutes } from './billing/routes.ts';
import { catalogAdminRoutes } from './catalog/admin-routes.ts';
import { complianceAdminRoutes } from './compliance/routes.ts';
import { checkoutAdminRoutes } from './checkout/admin-routes.ts';
import type { AppContext } from './context.ts';
import { simulateAdminRoutes } from './evaluate/simulate-routes.ts';
import { experimentAdminRoutes } from './experiments/routes.ts';
import type { MountableRoute } from './http/shop-routes.ts';
import { loginLinkAdminRoutes } from './merchant-admin/login-link-routes.ts';
import { onboardingAdminRoutes } from './onboarding/routes.ts';
import { orderAdminRoutes } from './orders/admin-routes.ts';
import { platformConnectionAdminRoutes } from './platform/connection-routes.ts';
import { shopLocaleRoutes } from './platform/shop-locales.ts';
import { repairAdminRoutes } from './repairs/routes.ts';
import { shopAdminRoutes } from './shops/admin-routes.ts';
import { storefrontTokenAdminRoutes } from './storefront/admin-routes.ts';
import { webhookAdminRoutes } from './webhooks/admin-routes.ts';

export function adminOnlyRoutes(ctx: AppContext): MountableRoute[] {
  return [
    ...shopAdminRoutes(ctx),
    ...apiKeyAdminRoutes(ctx),
    ...storefrontTokenAdminRoutes(ctx),
    ...catalogAdminRoutes(ctx),
    ...webhookAdminRoutes(ctx),
    ...orderAdminRoutes(ctx),
    ...repairAdminRoutes(ctx),
    ...experimentAdminRoutes(ctx),
    ...simulateAdminRoutes(ctx),
    ...checkoutAdminRoutes(ctx),
    ...platformConnectionAdminRoutes(ctx),
    ...shopLocaleRoutes(ctx),
    ...billingAdminRoutes(ctx),
    ...loginLinkAdminRoutes(ctx),
    ...complianceAdminRoutes(ctx),
    ...onboardingAdminRoutes(ctx),
  ];
}
