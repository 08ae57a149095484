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
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startPlatformStandin } from './platform.ts';

const appKey = process.env.PLATFORM_APP_KEY ?? 'standin-dev-app';
const appSecret = process.env.PLATFORM_APP_SECRET ?? 'standin-dev-app-secret-not-for-production';
const port = Number(process.env.STANDIN_PORT ?? 4100);
const publicUrl = (process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const domain = process.env.DEMO_SHOP ?? 'demo-gifts.myshopify.com';

const sign = (text: string) => createHmac('sha256', appSecret).update(text).digest();

/** The platform's session token for the demo shop, valid one minute. */
function sessionToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify({ iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: appKey, sub: '1', exp: now + 60, nbf: now - 1, iat: now, jti: `${now}-${Math.random()}` })).toString('base64url');
  return `${header}.${payload}.${sign(`${header}.${payload}`).toString('base64url')}`;
}

/** The admin's signed load of the app (`hmac`: hex HMAC-SHA256 of the sorted query). */
function appUrl(): string {
  const params: Record<string, string> = {
    embedded: '1',
    host: Buffer.from(`admin.shopify.com/store/${domain.split('.')[0] ?? domain}`).toString('base64url'),
    id_token: sessionToken(),
    shop: domain,
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const message = Object.keys(params).sort().map((name) => `${name}=${params[name]}`).join('&');
  return `${publicUrl}/app/?${new URLSearchParams({ ...params, hmac: sign(message).toString('hex') }).toString()}`;
}

// Not a platform route: the developer's way into the "admin".
const openApp = { method: 'GET' as const, path: '/open-app', handle: (_request: unknown, _body: Buffer, response: ServerResponse) => {
  response.writeHead(302, { location: appUrl(), 'cache-control': 'no-store' });
  response.end();
} };
// Billing's confirmation page sends app_subscriptions/update to the service, as the platform does.
const deliverWebhook = (headers: Record<string, string>, body: string) => fetch(`${publicUrl}/webhooks/platform`, { method: 'POST', headers, body });
const platform = await startPlatformStandin({ appKey, appSecret, port, host: '127.0.0.1', routes: [openApp], deliverWebhook });
platform.addShop({ domain, name: 'Demo Gifts', currencyCode: 'USD', ianaTimezone: 'America/New_York' });
platform.catalog.seed(domain, Number(process.env.DEMO_PRODUCTS ?? 40));

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
