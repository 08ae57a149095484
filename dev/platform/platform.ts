/**
 * The whole stand-in platform (docs/install.md "The stand-in platform"): the Admin GraphQL
 * server of standin.ts with every family the service talks to — install (token exchange, `shop`),
 * catalog, discounts — for the tests and `npm run platform:dev`.
 */
import { createCatalogFamily } from './catalog.ts';
import type { CatalogFamily } from './catalog.ts';
import { createDiscountsFamily } from './discounts.ts';
import type { DiscountsFamily } from './discounts.ts';
import { createInstallFamily } from './install.ts';
import type { InstallFamily } from './install.ts';
import { startStandinPlatform } from './standin.ts';
import type { StandinPlatform, StandinRoute } from './standin.ts';

export type PlatformStandin = StandinPlatform & { install: InstallFamily; catalog: CatalogFamily; discounts: DiscountsFamily };

/**
 * @example
 *   const platform = await startPlatformStandin({ appKey, appSecret });
 *   platform.addShop({ domain: 'acme.myshopify.com', currencyCode: 'EUR' });
 *   createTestApp({ PLATFORM_ADMIN_API_URL: platform.url, … });
 */
export async function startPlatformStandin(options: { appKey: string; appSecret: string; port?: number; host?: string; routes?: readonly StandinRoute[] }): Promise<PlatformStandin> {
  const install = createInstallFamily(options);
  const catalog = createCatalogFamily();
  const discounts = createDiscountsFamily();
  const platform = await startStandinPlatform({
    families: [install.family, catalog.family, discounts.family],
    routes: [install.route, ...(options.routes ?? [])],
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  install.attach(platform);
  return Object.assign(platform, { install, catalog, discounts });
}
