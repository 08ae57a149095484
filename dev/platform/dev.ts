/**
 * `npm run platform:dev`: the stand-in platform (docs/install.md) on a fixed port with a demo shop
 * and catalog, for running the install locally. It prints the environment to start the service
 * with, and a link that opens the app as the platform's admin does: `/open-app` answers a redirect
 * to `{PUBLIC_URL}/app/?shop=…&host=…&embedded=1&id_token=…&timestamp=…&hmac=…`, signed afresh at
 * each visit (a session token lives one minute).
 *
 * Settings (environment): PLATFORM_APP_KEY, PLATFORM_APP_SECRET (defaults for local use only),
 * STANDIN_PORT (4100), PUBLIC_URL (http://127.0.0.1:3000), DEMO_SHOP
 * (demo-gifts.myshopify.com), DEMO_PRODUCTS (40).
 */
import { openAppRoute } from './open-app.ts';
import { startPlatformStandin } from './platform.ts';

const appKey = process.env.PLATFORM_APP_KEY ?? 'standin-dev-app';
const appSecret = process.env.PLATFORM_APP_SECRET ?? 'standin-dev-app-secret-not-for-production';
const port = Number(process.env.STANDIN_PORT ?? 4100);
const publicUrl = (process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const domain = process.env.DEMO_SHOP ?? 'demo-gifts.myshopify.com';

const openApp = openAppRoute({ appKey, appSecret, publicUrl, domain });
// Billing's confirmation page sends app_subscriptions/update to the service, as the platform does.
const deliverWebhook = (headers: Record<string, string>, body: string) => fetch(`${publicUrl}/webhooks/platform`, { method: 'POST', headers, body });
const platform = await startPlatformStandin({ appKey, appSecret, port, host: '127.0.0.1', routes: [openApp], deliverWebhook });
platform.addShop({ domain, name: 'Demo Gifts', currencyCode: 'USD', ianaTimezone: 'America/New_York' });
platform.catalog.seed(domain, Number(process.env.DEMO_PRODUCTS ?? 40));
// The rule editor offers the published ones for the discount title's translations.
platform.locales.locales.set(domain, [
  { locale: 'en', primary: true, published: true },
  { locale: 'fr', primary: false, published: true },
  { locale: 'pt-BR', primary: false, published: true },
  { locale: 'de', primary: false, published: false },
]);

const print = (text = '') => process.stdout.write(`${text}\n`);
print(`stand-in platform at ${platform.url} (shop ${domain}, ${platform.catalog.catalogOf(domain).products.length} products)`);
print();
print('Start the service against it:');
print(`  PLATFORM_APP_KEY=${appKey} PLATFORM_APP_SECRET=${appSecret} PLATFORM_ADMIN_API_URL=${platform.url} PLATFORM_DISCOUNT_FUNCTION_ID=standin-function PUBLIC_URL=${publicUrl} npm start`);
print();
print('Then open the app as the platform\'s admin does (the first visit installs the shop):');
print(`  ${platform.url}/open-app`);
print('Outside the admin there is no App Bridge: for a session in the browser, npm run cli -- shop:login-link <shopId>');

const stop = () => void platform.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
