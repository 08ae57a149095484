/**
 * The whole stand-in platform (docs/install.md "The stand-in platform"): the Admin GraphQL
 * server of standin.ts with every family the service talks to — install (token exchange, `shop`),
 * catalog, discounts, billing (docs/billing.md), order editing (docs/repairs.md), the shop's
 * languages (`shopLocales`) — for the tests and `npm run platform:dev`.
 * Billing's confirmation page sends `app_subscriptions/update` through `deliverWebhook` (to the
 * service's `/webhooks/platform`); without it the subscription moves and nothing is sent.
 */
import { createStandinBilling } from './billing.ts';
import type { StandinBilling, WebhookDeliver } from './billing.ts';
import { createCatalogFamily } from './catalog.ts';
import type { CatalogFamily } from './catalog.ts';
import { createDiscountsFamily } from './discounts.ts';
import type { DiscountsFamily } from './discounts.ts';
import { createInstallFamily } from './install.ts';
import type { InstallFamily } from './install.ts';
import { createLocalesFamily } from './locales.ts';
import type { LocalesFamily } from './locales.ts';
import { createOrderEditingFamily } from './order-editing.ts';
import type { OrderEditingFamily } from './order-editing.ts';
import { startStandinPlatform } from './standin.ts';
import type { StandinPlatform, StandinRoute } from './standin.ts';

export type PlatformStandin = StandinPlatform & { install: InstallFamily; catalog: CatalogFamily; discounts: DiscountsFamily; billing: StandinBilling; orderEditing: OrderEditingFamily; locales: LocalesFamily };

export type PlatformStandinOptions = {
  appKey: string;
  appSecret: string;
  /** Where the platform's webhooks go (billing's confirmation page sends them). */
  deliverWebhook?: WebhookDeliver;
  port?: number;
  host?: string;
  routes?: readonly StandinRoute[];
};

/**
 * @example
 *   const platform = await startPlatformStandin({ appKey, appSecret });
 *   platform.addShop({ domain: 'acme.myshopify.com', currencyCode: 'EUR' });
 *   createTestApp({ PLATFORM_ADMIN_API_URL: platform.url, … });
 */
export async function startPlatformStandin(options: PlatformStandinOptions): Promise<PlatformStandin> {
  const install = createInstallFamily(options);
  const catalog = createCatalogFamily();
  const discounts = createDiscountsFamily();
  const orderEditing = createOrderEditingFamily();
  const locales = createLocalesFamily();
  const billing = createStandinBilling({ secret: options.appSecret, ...(options.deliverWebhook ? { deliver: options.deliverWebhook } : {}) });
  const platform = await startStandinPlatform({
    families: [install.family, catalog.family, discounts.family, billing.family, orderEditing.family, locales.family],
    routes: [install.route, catalog.route, ...billing.routes, ...(options.routes ?? [])],
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  install.attach(platform);
  billing.origin = platform.url;
  catalog.origin = platform.url;
  return Object.assign(platform, { install, catalog, discounts, billing, orderEditing, locales });
}
