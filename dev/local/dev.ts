/**
 * `npm run dev:local`: the whole way locally (docs/storefront-dev.md "The whole way locally").
 * On loopback ports it starts the stand-in platform (demo shop with the storefront fixture's
 * catalog), the service (embedded database, PLATFORM_* pointing at the stand-in), and the
 * stand-in storefront with the theme app extension's app embed and a checkout that runs the
 * gift-discount function's module in QuickJS and sends `orders/paid`. It prints the numbered
 * way and reports each step as it happens; Ctrl-C stops everything (and removes a temporary
 * data directory).
 *
 * Settings (environment): DEV_LOCAL_SERVICE_PORT (3000), DEV_LOCAL_PLATFORM_PORT (4100),
 * DEV_LOCAL_STOREFRONT_PORT (3200) — a busy port is replaced by a free one, 0 picks any;
 * LOG_LEVEL (warn). The data directory is always a fresh temporary one: the stand-in platform
 * keeps its shops and tokens in memory, so a service's data kept from an earlier run would hold
 * an access token the new stand-in never issued.
 */
import { buildFunction } from '../../scripts/build-function.ts';
import { loadFunctionInQuickJs } from '../checkout/quickjs-function.ts';
import { openAppRoute } from '../platform/open-app.ts';
import { startPlatformStandin } from '../platform/platform.ts';
import { DEMO_FIXTURE } from '../storefront/fixture.ts';
import { startStorefrontStandin } from '../storefront/server.ts';
import { checkOut, checkoutPage } from './checkout.ts';
import { loadFixtureCatalog } from './fixture-catalog.ts';
import { loginLink, seedCampaign, shopOf } from './merchant.ts';
import type { MerchantApi } from './merchant.ts';
import { freePort } from './ports.ts';
import { startDevService } from './service-child.ts';
import { DEV_LOCAL_APP_KEY, DEV_LOCAL_APP_SECRET, DEV_LOCAL_FUNCTION_ID, DEV_LOCAL_PRICES } from './settings.ts';

const print = (text = '') => process.stdout.write(`${text}\n`);
const fixture = DEMO_FIXTURE;
const domain = fixture.shopDomain;

async function main(): Promise<void> {
  const servicePort = await freePort(Number(process.env.DEV_LOCAL_SERVICE_PORT ?? 3000));
  const platformPort = await freePort(Number(process.env.DEV_LOCAL_PLATFORM_PORT ?? 4100));
  const storefrontPort = await freePort(Number(process.env.DEV_LOCAL_STOREFRONT_PORT ?? 3200));
  const serviceUrl = `http://127.0.0.1:${servicePort}`;

  const platform = await startPlatformStandin({
    appKey: DEV_LOCAL_APP_KEY,
    appSecret: DEV_LOCAL_APP_SECRET,
    port: platformPort,
    routes: [openAppRoute({ appKey: DEV_LOCAL_APP_KEY, appSecret: DEV_LOCAL_APP_SECRET, publicUrl: serviceUrl, domain })],
    deliverWebhook: (headers, body) => fetch(`${serviceUrl}/webhooks/platform`, { method: 'POST', headers, body }),
  });
  platform.addShop({ domain, name: 'Demo Gifts', currencyCode: fixture.currency, ianaTimezone: 'America/New_York' });
  loadFixtureCatalog(platform.catalog.catalogOf(domain), fixture);

  const service = startDevService({
    port: servicePort,
    dataDirPrefix: 'gcrs-dev-local-',
    env: {
      PUBLIC_URL: serviceUrl,
      PLATFORM_APP_KEY: DEV_LOCAL_APP_KEY,
      PLATFORM_APP_SECRET: DEV_LOCAL_APP_SECRET,
      PLATFORM_ADMIN_API_URL: platform.url,
      PLATFORM_DISCOUNT_FUNCTION_ID: DEV_LOCAL_FUNCTION_ID,
      PLATFORM_BILLING_PLANS: JSON.stringify(DEV_LOCAL_PRICES),
      PLATFORM_BILLING_TEST: 'true',
    },
  });
  service.onStop(() => platform.close());
  const { dataDir, adminToken } = service;
  let stopping = false;
  let following: Promise<void> | undefined;

  try {
    print(`Starting the service on ${serviceUrl} (embedded database in ${dataDir})…`);
    // The function's module, from the project's build, run in QuickJS as the platform runs it.
    const fn = await loadFunctionInQuickJs((await buildFunction()).code);
    service.onStop(async () => fn.dispose());
    await service.healthy();
    const deps = { fixture, platform, serviceUrl, appSecret: DEV_LOCAL_APP_SECRET, fn };
    const storefront = await startStorefrontStandin({
      serviceUrl,
      appSecret: DEV_LOCAL_APP_SECRET,
      fixture,
      port: storefrontPort,
      theme: 'embed',
      checkout: async (cart, customer) => {
        const outcome = await checkOut(deps, cart, customer);
        if (outcome.completed) {
          const lines = outcome.output.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => t.cartLine.id)));
          print(`✓ (5) checkout: the function discounted ${lines.length} line(s) (${lines.join(', ') || 'none'}), $${(outcome.discountCents / 100).toFixed(2)} off; orders/paid ${outcome.order.id} → ${outcome.webhookStatus}`);
        } else print(`✗ (5) checkout refused: ${outcome.reason}`);
        return { completed: outcome.completed && outcome.webhookStatus === 200, html: checkoutPage(outcome) };
      },
    });
    service.onStop(() => storefront.close());
    printWay({ serviceUrl, adminToken, dataDir, platformUrl: platform.url, storefrontUrl: storefront.url });
    following = follow({ serviceUrl, domain, adminToken }, () => platform.install.exchanges.some((exchange) => exchange.status === 200), () => stopping);
    // Runs first at stop: the step reporter ends before anything it asks goes away.
    service.onStop(async () => {
      stopping = true;
      await following;
    });
  } catch (error) {
    process.stderr.write(`dev:local failed: ${error instanceof Error ? error.message : String(error)}\n`);
    await service.stop(1);
  }
}

function printWay(run: { serviceUrl: string; adminToken: string; dataDir: string; platformUrl: string; storefrontUrl: string }): void {
  print('');
  print(`Service:     ${run.serviceUrl}  (admin token for this run: ${run.adminToken})`);
  print(`Platform:    ${run.platformUrl}  (the stand-in; shop ${domain}, ${fixture.products.length} products)`);
  print(`Storefront:  ${run.storefrontUrl}  (the theme app extension's app embed on)`);
  print('');
  print('The whole way:');
  print(`(1) Open the app: ${run.platformUrl}/open-app — the platform's admin loads it, the first load installs the shop`);
  print('    (token exchange, shop on Free, catalog import and the automatic discount as outbox jobs).');
  print('(2) In the merchant admin (the sign-in link printed below), Settings → Plan: choose Growth and approve it on the');
  print('    stand-in\'s page; the plan changes when its app_subscriptions/update webhook arrives.');
  print('(3) This script then creates the campaign through the merchant\'s API: "Spend $50, get a mug".');
  print(`(4) Open the storefront ${run.storefrontUrl}: add two tees, the app embed's script adds the Enamel Mug.`);
  print('(5) "Check out" in the cart: the gift-discount function runs on that cart (QuickJS), its output is shown and');
  print('    orders/paid is sent to the service, signed as the platform signs it.');
  print(`(6) Analytics (merchant admin → Analytics, or GET ${run.serviceUrl}/admin/v1/shops/<shopId>/analytics?from=…&to=…) count the order and the gift.`);
  print('Ctrl-C stops everything.');
  print('');
}

/** Reports steps (1) and (2) as they happen, and does step (3) once the plan is approved. */
async function follow(api: MerchantApi, installed: () => boolean, stopped: () => boolean): Promise<void> {
  const pause = () => new Promise((done) => setTimeout(done, 500));
  try {
    while (!installed()) {
      if (stopped()) return;
      await pause();
    }
    const shop = await shopOf(api);
    print(`✓ (1) installed: ${domain} is shop ${shop.id} on ${shop.plan}`);
    print(`    Merchant admin (sign-in link; no App Bridge outside the platform's admin): ${await loginLink(api, shop.id)}#/settings/plan`);
    for (let plan = shop.plan; plan === 'free'; plan = (await shopOf(api)).plan) {
      if (stopped()) return;
      await pause();
    }
    print(`✓ (2) plan: ${(await shopOf(api)).plan}`);
    const campaignId = await seedCampaign(api, { stopped });
    print(`✓ (3) campaign ${campaignId} live: a cart of $50 or more gets the Enamel Mug`);
  } catch (error) {
    if (!stopped()) process.stderr.write(`dev:local: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

void main();
