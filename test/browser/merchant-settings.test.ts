/**
 * Issue 12, Settings in real Chromium: a merchant changes shop settings (a bad value is refused
 * at its field) and the API reads them back; adds a webhook endpoint (its secret shown once,
 * gone after reload), sees a delivery with its attempt and error in the log, deletes it; creates
 * a storefront token that works and is 401 after revoking. axe and screenshots on each screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { LOOPBACK_RECEIVERS, startReceiver } from '../webhooks/receiver.ts';
import type { Receiver } from '../webhooks/receiver.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

describe.skipIf(skipWithoutChromium())('merchant admin settings, in Chromium', () => {
  let stack: MerchantAdminStack;
  let t: TestApp;
  let browser: Browser;
  let shop: TestShop;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startMerchantAdmin({ WEBHOOK_ALLOWED_HOSTS: LOOPBACK_RECEIVERS });
    ({ t, browser } = stack);
    shop = await t.createShop('scale');
    // The receiver refuses the first delivery: the log then shows an attempt with its answer.
    receiver = await startReceiver((_request, index) => ({ status: index === 0 ? 500 : 200 }));
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  const check = checkScreen;
  const readShop = async () => (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` })).json() as { shop: { settings: Record<string, Record<string, unknown> | number> } };

  it('changes shop settings, manages a webhook endpoint with its delivery log, creates and revokes a storefront token', async () => {
    // The 400s of the refused entries are expected failed requests (the browser logs each).
    const { page, errors } = await openPage(browser, /status of 400/);
    await stack.signIn(page, shop.id);
    await page.getByRole('link', { name: 'Settings' }).first().click();

    // Shop settings: the plan is shown, not editable; a bad value is refused at its field.
    await page.getByRole('heading', { name: 'Gift engine' }).waitFor();
    await page.getByText('Scale', { exact: true }).waitFor();
    expect(await page.getByLabel('Plan').count()).toBe(0);
    await check(page, 'settings-shop');
    const delay = page.getByLabel('Evaluation delay (milliseconds)');
    await delay.fill('70000');
    await page.getByLabel('Low-stock threshold').fill('9');
    await page.getByLabel(/Allow evaluation traces/).check();
    await page.getByLabel('When several rules match').selectOption('highest_tier');
    await page.getByLabel('Block carts that hold only gifts').uncheck();
    // Money in the shop's currency: "50" is $50.00, stored as 5000 cents.
    await page.getByLabel('Minimum order total for gifts').fill('50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => delay.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await delay.getAttribute('aria-describedby')) ?? '';
    expect(describedBy).toMatch(/Error/);
    expect(await page.locator(`[id="${describedBy.split(' ').find((id) => id.endsWith('Error'))}"]`).innerText()).toMatch(/60000|60,000|60 000/);
    await check(page, 'settings-shop-error');
    expect((await readShop()).shop.settings.lowStockThreshold).toBe(5);

    await delay.fill('250');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Shop settings saved').waitFor();
    expect(await delay.getAttribute('aria-invalid')).not.toBe('true');
    const { settings } = (await readShop()).shop;
    expect(settings.lowStockThreshold).toBe(9);
    expect(settings.storefront).toEqual({ debug: true });
    expect(settings.engine).toMatchObject({ evaluationDelay: 250, stacking: 'highest_tier' });
    expect(settings.checkout).toMatchObject({ blockGiftOnlyCarts: false, minOrderTotalCents: 5000 });
    await page.reload();
    await page.getByLabel('Low-stock threshold').waitFor();
    expect(await page.getByLabel('Low-stock threshold').inputValue()).toBe('9');
    expect(await page.getByLabel('Minimum order total for gifts').inputValue()).toBe('50.00');

    // Webhooks: a URL the dispatcher could never reach is refused at the field.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'No webhook endpoints' }).waitFor();
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();
    await check(page, 'settings-webhooks-empty');
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:25/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Port 25 is blocked for HTTP requests; use another port').waitFor();
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
    await page.getByLabel(/campaign\.activated/).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy signing secret' }).waitFor();
    await page.getByRole('heading', { name: `${receiver.url}/hooks`, exact: true }).waitFor();
    await check(page, 'settings-webhooks-secret');
    const listed = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-endpoints` })).json() as { endpoints: Array<{ url: string; events: string[] }> };
    expect(listed.endpoints).toEqual([expect.objectContaining({ url: `${receiver.url}/hooks`, events: ['campaign.activated'] })]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    await page.reload();
    await page.getByRole('heading', { name: `${receiver.url}/hooks`, exact: true }).waitFor();
    expect(await page.getByLabel('Signing secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // An event: a campaign goes live; the dispatcher's first attempt meets the receiver's 500.
    const imported = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign('Mug for 50', { isDraft: false, rules: [rule()] })] } });
    const campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
    expect((await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}/enable?force=1` })).statusCode).toBe(200);
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: createRecordingDiscountPort(t.ctx.db) }), webhooks: createWebhookSender({ allowList: t.config.webhookAllowList }), pollMs: 20 });
    await dispatcher.runOnce();
    expect(receiver.requests).toHaveLength(1);
    await page.getByRole('button', { name: 'Refresh the delivery log' }).click();
    const log = page.getByRole('list', { name: 'Webhook deliveries' });
    await log.getByRole('heading', { name: 'campaign.activated' }).waitFor();
    await log.getByText('Pending', { exact: true }).waitFor();
    await log.getByText(/1 attempt · last answer HTTP 500/).waitFor();
    await log.getByText(/Last error:/).waitFor();
    await check(page, 'settings-webhooks-log');

    await page.getByRole('button', { name: `Delete ${receiver.url}/hooks` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('status').getByText(`${receiver.url}/hooks is deleted`).waitFor();
    await page.getByRole('heading', { name: 'No webhook endpoints' }).waitFor();
    await log.getByText('Cancelled', { exact: true }).waitFor();
    const after = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-endpoints` })).json() as { endpoints: unknown[] };
    expect(after.endpoints).toEqual([]);

    // Storefront tokens: an origin with a path is refused at the field; the token works until revoked.
    await page.getByRole('link', { name: 'Storefront tokens' }).click();
    await page.getByRole('heading', { name: 'No storefront tokens' }).waitFor();
    const origins = page.getByLabel('Allowed origins (one a line)');
    await origins.fill('https://shop.example.com/cart');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => origins.getAttribute('aria-invalid')).toBe('true');
    await page.getByText(/^https:\/\/shop\.example\.com\/cart: /).waitFor();
    await check(page, 'settings-storefront-tokens-error');
    await origins.fill('https://shop.example.com\nhttps://www.example.com');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('The new token').inputValue();
    expect(token).toMatch(/^spk_/);
    const headers = { 'x-storefront-token': token };
    expect((await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers })).statusCode).toBe(200);
    await page.getByText('https://shop.example.com, https://www.example.com', { exact: false }).waitFor();
    await check(page, 'settings-storefront-tokens');

    // The list shows the token's visible start only.
    const revokeButton = page.getByRole('button', { name: /^Revoke token spk_/ });
    const listedPrefix = ((await revokeButton.getAttribute('aria-label')) ?? '').replace('Revoke token ', '');
    expect(listedPrefix.length).toBeGreaterThan(4);
    expect(token.startsWith(listedPrefix)).toBe(true);
    expect(await page.getByRole('list', { name: 'Storefront tokens' }).innerText()).not.toContain(token);
    await revokeButton.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await page.getByRole('heading', { name: 'No storefront tokens' }).waitFor();
    expect((await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers })).statusCode).toBe(401);

    // API keys keep their URL and gain the same sub-navigation.
    await page.goto(`${stack.base}/app/#/settings/api-keys`);
    await page.getByRole('heading', { name: 'Create an API key' }).waitFor();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'API keys (current section)' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

});
