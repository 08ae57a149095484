/**
 * Issue 21 item 4, Settings → Data requests in real Chromium: a `customers/data_request` the
 * platform sent is listed with its counts and its export downloads as JSON, by keyboard, at
 * 1440 and 360 px (axe and screenshots on each); another shop's request is not shown.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { SECRET, domainOf, seedEveryTable, sendDataRequest } from '../compliance/fixtures.ts';

describe.skipIf(skipWithoutChromium())('merchant admin data requests, in Chromium', () => {
  let stack: MerchantAdminStack;
  let t: TestApp;
  let browser: Browser;
  let shop: TestShop;
  let other: TestShop;
  const customerId = '207119551';

  beforeAll(async () => {
    stack = await startMerchantAdmin({ PLATFORM_APP_SECRET: SECRET });
    ({ t, browser } = stack);
    [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
    const [domain, otherDomain] = await Promise.all([domainOf(t, shop.id), domainOf(t, other.id)]);
    await seedEveryTable(t, shop, domain, customerId);
    await sendDataRequest(t, domain, { customerId, dataRequestId: '4242' });
    await sendDataRequest(t, otherDomain, { customerId: '999', dataRequestId: '5151' });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('lists the shop\'s requests and downloads an export by keyboard', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/settings/data-requests`);
    await page.getByRole('heading', { name: `Customer ${customerId}` }).first().waitFor();
    expect(await page.getByText('Request 5151').count()).toBe(0);
    await page.getByText(/Request 4242/).waitFor();
    await page.getByText('1 redemption record · 2 orders · 1 storefront event').first().waitFor();
    await checkScreen(page, 'settings-data-requests');

    await page.setViewportSize({ width: 360, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    const button = page.getByRole('button', { name: `Download export of request 4242 (customer ${customerId})` });
    await button.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('data-request-4242.json');
    const path = await download.path();
    const data = JSON.parse(await readFile(path, 'utf8')) as { customer: { id: string }; orders: unknown[]; redemptions: unknown[] };
    expect(data.customer).toEqual({ id: customerId });
    expect(data.orders).toHaveLength(2);
    expect(data.redemptions).toHaveLength(1);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(errors).toEqual([]);
  });
});
