/**
 * The service listening on a real port (the test app on its own database) with the stand-in
 * storefront in front of it, for the browser tests and the stand-in's own tests. Shops are
 * seeded through the admin API, as `npm run storefront:dev` does.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { DEMO_FIXTURE } from '../../dev/storefront/fixture.ts';
import type { StorefrontFixture } from '../../dev/storefront/fixture.ts';
import { AdminClient } from '../../dev/storefront/seed.ts';
import type { Plan } from '../../dev/storefront/seed.ts';
import { startStorefrontStandin } from '../../dev/storefront/server.ts';
import type { StorefrontStandin } from '../../dev/storefront/server.ts';
import { launchChromium } from './chromium.ts';
import type { Browser } from './chromium.ts';
import { ADMIN_TOKEN, createTestApp } from './test-app.ts';
import { LOOPBACK_RECEIVERS } from '../webhooks/receiver.ts';
import type { TestApp } from './test-app.ts';

export const TEST_APP_SECRET = 'test-platform-app-secret';
export const TEST_APP_KEY = 'test-platform-app-key';

export type StorefrontStack = {
  t: TestApp;
  serviceUrl: string;
  admin: AdminClient;
  /** A shop on `plan` with the fixture's catalog, and a stand-in storefront on its domain. */
  openShop(plan: Plan, options?: { fixture?: StorefrontFixture; scriptUrl?: string; theme?: 'script-tag' | 'embed' }): Promise<{ shopId: string; standin: StorefrontStandin }>;
  close(): Promise<void>;
};

let shops = 0;

/**
 * @example
 *   const stack = await startStorefrontStack();
 *   const { shopId, standin } = await stack.openShop('scale');
 *   await page.goto(standin.url);
 */
export async function startStorefrontStack(env: Record<string, string> = {}): Promise<StorefrontStack> {
  // Webhook receivers of these tests listen on this machine, as in local development.
  const t = await createTestApp({ PLATFORM_APP_SECRET: TEST_APP_SECRET, PLATFORM_APP_KEY: TEST_APP_KEY, WEBHOOK_ALLOWED_HOSTS: LOOPBACK_RECEIVERS, ...env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the test app is not listening on a port');
  const serviceUrl = `http://127.0.0.1:${address.port}`;
  const admin = new AdminClient(serviceUrl, ADMIN_TOKEN);
  const standins: StorefrontStandin[] = [];
  return {
    t,
    serviceUrl,
    admin,
    async openShop(plan, options = {}) {
      const fixture = options.fixture ?? DEMO_FIXTURE;
      shops += 1;
      const domain = `shop-${process.pid}-${shops}.myshopify.com`;
      const shopId = await admin.createShop(domain, plan, fixture.currency);
      await admin.uploadCatalog(shopId, fixture);
      const standin = await startStorefrontStandin({
        serviceUrl,
        appSecret: TEST_APP_SECRET,
        fixture,
        shopDomain: domain,
        ...(options.scriptUrl ? { scriptUrl: options.scriptUrl } : {}),
        ...(options.theme ? { theme: options.theme } : {}),
      });
      standins.push(standin);
      return { shopId, standin };
    },
    async close() {
      await Promise.all(standins.map((standin) => standin.close()));
      await t.close();
    },
  };
}

/**
 * The hooks of a browser test file on the stand-in storefront: one service + stand-in stack and
 * one Chromium for the file, a fresh page without cookies for each test. `bind` receives them
 * before each test, so the file keeps plain `stack` and `page` variables.
 *
 * @example
 *   let stack: StorefrontStack;
 *   let page: Page;
 *   useStorefrontBrowser((session) => ({ stack, page } = session));
 */
export function useStorefrontBrowser(bind: (session: { stack: StorefrontStack; page: Page }) => void): void {
  let stack: StorefrontStack | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    stack = await startStorefrontStack();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  beforeEach(async () => {
    if (!stack || !browser) throw new Error('useStorefrontBrowser: the stack or Chromium did not start');
    await browser.context.clearCookies();
    page = await browser.context.newPage();
    bind({ stack, page });
  });
  afterEach(async () => {
    await page?.close();
  });
}
