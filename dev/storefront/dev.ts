/**
 * `npm run storefront:dev`: the service and the stand-in storefront side by side, a demo shop
 * seeded through the admin API, and the storefront's URL printed. Ctrl-C stops both and removes
 * the temporary data directory. docs/storefront-dev.md walks through it.
 *
 * Ports: the service on STOREFRONT_DEV_SERVICE_PORT (default 3100), the storefront on
 * STOREFRONT_DEV_PORT (default 3200); 0 picks free ones. The theme loads gifts.js through the
 * theme app extension's app embed, rendered from its Liquid (`STOREFRONT_DEV_THEME=embed`, the
 * default), or with part two's `<script>` include from the service (`script-tag`).
 */
import { freePort } from '../local/ports.ts';
import { startDevService } from '../local/service-child.ts';
import { DEMO_FIXTURE } from './fixture.ts';
import { AdminClient, DEMO_THRESHOLD_CENTS, seedDemoShop } from './seed.ts';
import { startStorefrontStandin } from './server.ts';

/** The dev values of the platform app credentials (CONTRACT "Platform app credentials"). */
export const DEV_APP_SECRET = 'storefront-dev-app-secret';
export const DEV_APP_KEY = 'storefront-dev-app-key';

async function main(): Promise<void> {
  const servicePort = await freePort(Number(process.env.STOREFRONT_DEV_SERVICE_PORT ?? 3100));
  const storefrontPort = await freePort(Number(process.env.STOREFRONT_DEV_PORT ?? 3200));
  const service = startDevService({
    port: servicePort,
    dataDirPrefix: 'gcrs-storefront-dev-',
    env: { PLATFORM_APP_SECRET: DEV_APP_SECRET, PLATFORM_APP_KEY: DEV_APP_KEY },
  });
  const { url: serviceUrl, dataDir, adminToken } = service;

  try {
    process.stdout.write(`Starting the service on ${serviceUrl} (embedded database in ${dataDir})…\n`);
    await service.healthy();
    const { shopId, campaignId } = await seedDemoShop(new AdminClient(serviceUrl, adminToken), DEMO_FIXTURE);
    const theme = process.env.STOREFRONT_DEV_THEME === 'script-tag' ? 'script-tag' : 'embed';
    const standin = await startStorefrontStandin({ serviceUrl, appSecret: DEV_APP_SECRET, fixture: DEMO_FIXTURE, port: storefrontPort, theme });
    service.onStop(standin.close);
    process.stdout.write(
      [
        '',
        `Storefront:  ${standin.url}  (gifts.js by ${theme === 'embed' ? 'the theme app extension\'s app embed' : 'the <script> include'})`,
        `Service:     ${serviceUrl}  (admin token for this run: ${adminToken})`,
        `Demo shop:   ${DEMO_FIXTURE.shopDomain} (${shopId}), Scale plan; campaign ${campaignId}:`,
        `             a cart of $${DEMO_THRESHOLD_CENTS / 100} or more gets the Enamel Mug, free at checkout.`,
        '',
        'Open the storefront, add two tees: the mug appears in the cart with its _svc_* properties.',
        'Take one tee out: the mug goes. Ctrl-C stops both servers and deletes the data directory.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    process.stderr.write(`storefront:dev failed: ${error instanceof Error ? error.message : String(error)}\n`);
    await service.stop(1);
  }
}

void main();
