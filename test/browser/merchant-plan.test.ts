/**
 * Issue 21 item 3, Settings → Plan in real Chromium against the stand-in platform: the plans
 * with the operator's prices; choosing one goes to the platform's confirmation page at the top
 * level (standalone: location; embedded: App Bridge's `window.open(url, '_top')`); approving
 * there sends `app_subscriptions/update` and the shop is on the new plan; going back to Free
 * cancels it and the platform's CANCELLED sets Free. A shop without a
 * platform connection is told the operator sets its plan. axe and screenshots.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStandinBilling } from '../../dev/platform/billing.ts';
import type { StandinBilling } from '../../dev/platform/billing.ts';
import { startStandinPlatform } from '../../dev/platform/standin.ts';
import type { StandinPlatform } from '../../dev/platform/standin.ts';
import { catalogImports } from '../../src/db/schema.ts';
import { markConnectionBroken } from '../../src/platform/connections.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import { APP_KEY, planOf, PRICES, SECRET, sessionToken } from '../billing/support.ts';

describe.skipIf(skipWithoutChromium())('Settings → Plan, in Chromium', () => {
  let stack: MerchantAdminStack;
  let platform: StandinPlatform;
  let billing: StandinBilling;

  beforeAll(async () => {
    const target: { base?: string } = {};
    billing = createStandinBilling({
      secret: SECRET,
      deliver: async (headers, body) => {
        const res = await fetch(`${target.base ?? ''}/webhooks/platform`, { method: 'POST', headers, body });
        if (res.status !== 200) throw new Error(`webhook refused: ${res.status} ${await res.text()}`);
      },
    });
    platform = await startStandinPlatform({ families: [billing.family], routes: billing.routes });
    billing.origin = platform.url;
    stack = await startMerchantAdmin({
      PLATFORM_APP_SECRET: SECRET,
      PLATFORM_APP_KEY: APP_KEY,
      PLATFORM_ADMIN_API_URL: platform.url,
      PLATFORM_BILLING_PLANS: JSON.stringify(PRICES),
      PLATFORM_BILLING_TEST: 'true',
    });
    target.base = stack.base;
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await platform?.close();
  });

  async function shop(connected: boolean) {
    const domain = `plan-${randomBytes(5).toString('hex')}.myshopify.com`;
    const created = await stack.t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain, plan: 'free' } });
    const id = (created.json() as { shop: { id: string } }).shop.id;
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    platform.addShop({ domain, accessTokens: new Set([token]) });
    if (connected) await stack.t.admin({ method: 'PUT', url: `/admin/v1/shops/${id}/platform-connection`, payload: { accessToken: token } });
    return { id, domain };
  }

  it('shows the plans and prices, sends the merchant to the confirmation page, and the approved plan is the shop\'s', async () => {
    const { id } = await shop(true);
    const { page, errors } = await openPage(stack.browser);
    // The platform's admin, where the confirmation page sends the merchant back, is not on this machine.
    await page.route('https://admin.shopify.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Admin</title><h1>Platform admin</h1>' }));
    await stack.signIn(page, id);
    await page.goto(`${stack.base}/app/#/settings/plan`);
    await page.getByRole('heading', { name: 'Growth' }).waitFor();
    await page.getByText(/\$19\.00 every 30 days, 7-day free trial/).waitFor();
    await page.getByRole('heading', { name: 'Test charges' }).waitFor();
    expect(await page.getByRole('button', { name: /^Choose/ }).allTextContents()).toEqual(['Choose Growth', 'Choose Pro']);
    await checkScreen(page, 'settings-plan');

    await page.getByRole('button', { name: 'Choose Pro' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${platform.url}/admin/charges/`));
    await page.getByText(/Pro/).first().waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.hostname === 'admin.shopify.com');
    expect(await planOf(stack.t, id)).toBe('pro');

    await page.goto(`${stack.base}/app/#/settings/plan`);
    await page.getByRole('heading', { name: 'Pro' }).waitFor();
    await expect.poll(() => page.getByText('Current plan', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Choose/ }).allTextContents()).toEqual(['Choose Growth']);

    // Back to Free: appSubscriptionCancel, then the platform's CANCELLED webhook sets Free.
    await page.getByRole('button', { name: 'Cancel subscription and go back to Free' }).click();
    await page.getByText(/Your subscription is cancelled/).waitFor();
    await expect.poll(() => planOf(stack.t, id)).toBe('free');
    await page.reload();
    await page.getByRole('button', { name: 'Choose Pro' }).waitFor();
    expect(await page.getByRole('button', { name: /^Choose/ }).allTextContents()).toEqual(['Choose Growth', 'Choose Pro']);
    expect(await page.getByRole('button', { name: /go back to Free/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('embedded: leaves the admin\'s iframe through App Bridge, window.open(url, \'_top\')', async () => {
    const { domain } = await shop(true);
    const { page, errors } = await openPage(stack.browser);
    await page.addInitScript((token: string) => {
      const opened: unknown[] = [];
      // App Bridge as the admin's frame gives it: a session token, and `open` it handles.
      Object.assign(globalThis, {
        shopify: { idToken: async () => token },
        __opened: opened,
        open: (...args: unknown[]) => {
          opened.push(args);
          return null;
        },
      });
    }, sessionToken(domain));
    await page.goto(`${stack.base}/app/#/settings/plan`);
    await page.getByRole('button', { name: 'Choose Growth' }).click();
    const opened = () => page.evaluate(() => (globalThis as unknown as { __opened: Array<[string, string]> }).__opened);
    await expect.poll(opened).toHaveLength(1);
    const [url, target] = (await opened())[0] ?? [];
    expect(url?.startsWith(`${platform.url}/admin/charges/`)).toBe(true);
    expect(target).toBe('_top');
    expect(new URL(page.url()).origin).toBe(stack.base);
    expect(errors).toEqual([]);
  });

  it('shows the connection and the catalog import: running with pages and products, its last error in words, then done; a broken connection', async () => {
    const { id } = await shop(true);
    const startedAt = new Date('2026-03-01T10:00:00Z');
    await stack.t.ctx.db.insert(catalogImports).values({ shopId: id, id: 'imp_browser0000000001', status: 'running', pages: 3, products: 75, variants: 160, startedAt, lastError: 'Throttled (HTTP 429)' });
    const { page, errors } = await openPage(stack.browser);
    await stack.signIn(page, id);
    await page.goto(`${stack.base}/app/#/settings/plan`);
    await page.getByRole('heading', { name: 'Platform connection' }).waitFor();
    await page.getByText(/^Connected since /).waitFor();
    await page.getByText(/^Running since .*: 3 pages, 75 products and 160 variants so far\.$/).waitFor();
    await page.getByText('The platform asked the app to slow down. The app tries again on its own.').waitFor();
    await checkScreen(page, 'settings-plan-import-running');

    await stack.t.ctx.db.update(catalogImports).set({ status: 'done', pages: 4, products: 90, variants: 190, finishedAt: new Date(), lastError: null }).where(eq(catalogImports.shopId, id));
    await page.getByRole('button', { name: 'Refresh import status' }).click();
    await page.getByText(/^Done on .*: 90 products and 190 variants imported\.$/).waitFor();
    expect(await page.getByRole('button', { name: 'Refresh import status' }).count()).toBe(0);

    await markConnectionBroken(stack.t.ctx.db, id, 'The platform refused the shop\'s access token (401)', new Date());
    await page.reload();
    await page.getByText(/^Connection broken since /).waitFor();
    await page.getByText('Details: The platform refused the shop\'s access token (401)').waitFor();
    expect(errors).toEqual([]);
  });

  it('a shop without a platform connection: the operator sets its plan, no button', async () => {
    const { id } = await shop(false);
    const { page, errors } = await openPage(stack.browser);
    await stack.signIn(page, id);
    await page.goto(`${stack.base}/app/#/settings/plan`);
    await page.getByText('Your plan is set by the service\'s operator').waitFor();
    expect(await page.getByRole('button', { name: /^Choose/ }).count()).toBe(0);
    await page.getByText('Not connected to the platform.').waitFor();
    expect(await page.getByRole('heading', { name: 'Catalog import' }).count()).toBe(0);
    await checkScreen(page, 'settings-plan-operator');
    expect(errors).toEqual([]);
  });
});
