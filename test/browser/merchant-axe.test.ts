/**
 * Issue 23 item 6 (axe): every screen of the merchant admin, opened by its bookmarkable address
 * (`/app/#/…`, a full page load each), has no axe finding of any impact — moderate ones such as
 * `region` and `heading-order` included — at 1440 and at 360 px wide; and going from screen to
 * screen makes no call that fails (a page that read its id from the address after it changed did).
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign } from '../campaigns/fixtures.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import { openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

describe.skipIf(skipWithoutChromium())('axe on every screen of the merchant admin, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;
  let campaignId: string;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    shop = await stack.t.createShop('scale');
    const res = await stack.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign('Spend 50, get a mug')] } });
    expect(res.statusCode).toBe(200);
    campaignId = (res.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('finds nothing on any screen at 1440 and 360 px', async () => {
    const screens: Array<[hash: string, heading: string | RegExp]> = [
      ['#/campaigns', 'Campaigns'],
      ['#/campaigns/new', 'New campaign'],
      [`#/campaigns/${campaignId}`, 'Edit Spend 50, get a mug'],
      ['#/simulator', 'Simulator'],
      ['#/widgets', 'Widgets'],
      ['#/analytics', 'Analytics'],
      ['#/experiments', 'Experiments'],
      ['#/repairs', 'Repaired orders'],
      ['#/settings', 'Settings'],
      ['#/settings/plan', 'Settings'],
      ['#/settings/webhooks', 'Settings'],
      ['#/settings/storefront-tokens', 'Settings'],
      ['#/settings/api-keys', 'Settings'],
      ['#/settings/data-requests', 'Settings'],
    ];
    // The shop has no platform connection: the plan screen's read of it is a 404 (its card says so); any other failed call is a defect.
    const { page, errors } = await openPage(stack.browser, /status of 404/);
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/app/api/v1/platform-connection')) failed.push(`${response.status()} ${response.url()} on ${page.url()}`);
    });
    await stack.signIn(page, shop.id);
    const findings: string[] = [];
    for (const [hash, heading] of screens) {
      await page.goto(`${stack.base}/app/${hash}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      for (const width of [1440, 360]) {
        await page.setViewportSize({ width, height: 900 });
        const result = await new AxeBuilder({ page }).analyze();
        for (const violation of result.violations) findings.push(`${hash} at ${width}px: ${violation.id} (${violation.impact ?? '?'}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    // The narrow screen's navigation sheet, open: a named dialog, nothing outside a landmark.
    await page.goto(`${stack.base}/app/#/campaigns`);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.setViewportSize({ width: 360, height: 900 });
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await page.getByRole('dialog', { name: 'Navigation' }).getByRole('link', { name: 'Simulator' }).waitFor();
    for (const violation of (await new AxeBuilder({ page }).analyze()).violations) findings.push(`navigation sheet at 360px: ${violation.id} (${violation.impact ?? '?'})`);
    await page.getByRole('dialog', { name: 'Navigation' }).getByRole('link', { name: 'Simulator' }).click();
    await page.getByRole('heading', { name: 'Simulator', level: 1 }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(findings).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
