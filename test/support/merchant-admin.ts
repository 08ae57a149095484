/**
 * The merchant admin in real Chromium: the test app listening on a port, a browser, sign-in by
 * the operator's login link, and the check every screen passes (no axe finding of any impact,
 * screenshots at 1440 and 360 px in test-artifacts/browser/).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, saveScreenshot } from './chromium.ts';
import type { Browser } from './chromium.ts';
import { createTestApp } from './test-app.ts';
import type { TestApp } from './test-app.ts';

export type MerchantAdminStack = {
  t: TestApp;
  /** The app's origin, e.g. `http://127.0.0.1:41234`. */
  base: string;
  browser: Browser;
  /** A fresh one-time login link of `shopId`, on `base`. */
  loginLink(shopId: string): Promise<string>;
  /** Opens a fresh login link of `shopId` in `page` and waits until its form has signed in (at /app/). */
  signIn(page: Page, shopId: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * Starts the app (its own database) on a port and Chromium.
 *
 * @example
 *   const stack = await startMerchantAdmin();
 *   await stack.signIn(page, shop.id);
 */
export async function startMerchantAdmin(env: Record<string, string> = {}): Promise<MerchantAdminStack> {
  const t = await createTestApp(env);
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium();
  const loginLink = async (shopId: string) => {
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/login-links` });
    const { url } = res.json() as { url: string };
    return base + new URL(url).pathname + new URL(url).search;
  };
  return {
    t,
    base,
    browser,
    loginLink,
    async signIn(page, shopId) {
      await page.goto(await loginLink(shopId));
      // The link's page submits its form itself (docs/merchant-admin.md "Login links").
      await page.waitForURL((url) => url.pathname === '/app/');
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * No axe finding (moderate and minor ones included) on the page as it is, at 1440 and 360 px wide, and a
 * screenshot at each (`merchant-admin-<name>-<width>.png`); the viewport goes back to 1440.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 });
    const result = await new AxeBuilder({ page }).analyze();
    expect(result.violations.map((violation) => `${violation.id} (${violation.impact ?? '?'}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), `${name} at ${width}px`).toEqual([]);
    await saveScreenshot(page, `merchant-admin-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * A new page of `browser` and the errors it reports: uncaught exceptions, and console errors
 * except the failed requests a test provokes on purpose (`expected`, e.g. `/status of 400/`:
 * the browser logs each refused request).
 *
 * @example
 *   const { page, errors } = await openPage(stack.browser, /status of 400/);
 *   // … drive the page …
 *   expect(errors).toEqual([]);
 */
export async function openPage(browser: Browser, expected?: RegExp): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected?.test(message.text())) errors.push(message.text());
  });
  return { page, errors };
}
