/**
 * Issue 23 items 7 and 8 in real Chromium: the getting-started checklist on the admin's home (its
 * steps as the server sees them, links to where each is done, ticked as the merchant goes, hidden
 * for good once dismissed); a template opens a filled editor and saves nothing until the merchant
 * creates the campaign; the gift picker shows pictures, prices in the shop's currency and stock,
 * searches, and adds several gifts at once. axe and screenshots on each screen (checkScreen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogFamily } from '../../dev/platform/catalog.ts';
import { startStandinPlatform } from '../../dev/platform/standin.ts';
import type { StandinPlatform } from '../../dev/platform/standin.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

type Campaign = { id: string; name: string; rules: Array<{ name: string; options: { priority?: number; exclusive?: boolean }; giftConfig: { gifts: Array<{ variantId: string; quantity: number }> } }> };

const variant = (id: number, title: string, price: number | null, inventoryQuantity = 10) => ({ id: `gid://shopify/ProductVariant/${id}`, title, inventoryQuantity, inventoryPolicy: 'DENY', ...(price === null ? {} : { price }) });

describe.skipIf(skipWithoutChromium())('getting started, templates and the gift picker, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;
  // The product pictures come from the stand-in platform's image route, as its seeded catalog's do.
  let images: StandinPlatform;
  let imageUrl: string;

  beforeAll(async () => {
    stack = await startMerchantAdmin({ PLATFORM_APP_KEY: 'app-key-browser', PLATFORM_APP_SECRET: 'browser-app-secret' });
    shop = await stack.t.createShop('scale');
    images = await startStandinPlatform({ families: [], routes: [createCatalogFamily().route] });
    imageUrl = `${images.url}/cdn/product.svg?id=1`;
    const res = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/catalog`,
      payload: {
        products: [
          { id: 'gid://shopify/Product/1', title: 'Enamel Mug', status: 'active', imageUrl, variants: [variant(11, 'Blue', 1999, 12), variant(12, 'Red', 1999, 0)] },
          { id: 'gid://shopify/Product/2', title: 'Canvas Tote', status: 'active', variants: [variant(21, 'Default Title', 2500, 40)] },
          { id: 'gid://shopify/Product/3', title: 'Sticker sheet', status: 'active', variants: [variant(31, 'Default Title', null, 40)] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await images?.close();
  });

  it('walks the checklist: a template, several gifts at once, enable, then hide it for good', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 409/);
    await stack.signIn(page, shop.id);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();

    const checklist = page.getByRole('list', { name: 'Getting-started steps' });
    await checklist.waitFor();
    await page.getByText('0 of 4 steps done').waitFor();
    const editorLink = page.getByRole('link', { name: 'Open the theme editor' });
    expect(await editorLink.getAttribute('href')).toBe(`https://${(await shopDomain())}/admin/themes/current/editor?context=apps&activateAppId=app-key-browser/gift-embed`);
    expect(await page.getByRole('link', { name: 'Open settings' }).getAttribute('href')).toBe('#/settings');
    expect(await page.getByRole('link', { name: /^Use template / }).count()).toBe(5);
    await checkScreen(page, 'getting-started');

    // A template fills the editor; nothing exists until Create campaign.
    await page.getByRole('link', { name: 'Use template Tiered gifts' }).click();
    await page.getByRole('heading', { name: 'New campaign: Tiered gifts', level: 1 }).waitFor();
    await page.getByText('Filled from the template Tiered gifts').waitFor();
    expect(await page.getByLabel('Campaign name', { exact: true }).inputValue()).toBe('Tiered gifts');
    expect(await page.getByLabel('Rule 1 name', { exact: true }).inputValue()).toBe('Tier 2: spend 100 or more');
    expect(await page.getByLabel('Rule 2 name', { exact: true }).inputValue()).toBe('Tier 1: spend 50 or more');
    expect(((await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns` })).json() as { campaigns: unknown[] }).campaigns).toEqual([]);
    await checkScreen(page, 'template-editor');

    // Several gifts at once, ticked across two searches: the empty slot first, then one more.
    await page.getByRole('button', { name: 'Add gifts from catalog to Rule 1' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('4 variants · 0 ticked').waitFor();
    expect(await dialog.locator(`img[src="${imageUrl}"]`).count()).toBe(1);
    await dialog.getByText('$19.99').first().waitFor();
    await dialog.getByText('$25.00').waitFor();
    await dialog.getByText('Sold out').waitFor();
    await dialog.getByRole('checkbox', { name: /Enamel Mug: Blue/ }).check();
    await checkScreen(page, 'gift-picker-many');
    await dialog.getByLabel('Search products').fill('tote');
    await dialog.getByText('1 variant · 1 ticked').waitFor();
    await dialog.getByRole('checkbox', { name: /Canvas Tote: Default/ }).check();
    await dialog.getByRole('button', { name: 'Add 2 gifts' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Rule 1 gift 1 variant id', { exact: true }).inputValue()).toBe('gid://shopify/ProductVariant/11');
    expect(await page.getByLabel('Rule 1 gift 2 variant id', { exact: true }).inputValue()).toBe('gid://shopify/ProductVariant/21');

    // One gift for the lower tier, by its Choose button (price in its name).
    await page.getByRole('button', { name: 'Choose from catalog for Rule 2 gift 1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Choose Sticker sheet, 40 in stock' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Create campaign' }).last().click();
    await page.getByRole('heading', { name: 'Edit Tiered gifts', level: 1 }).waitFor();
    const id = /#\/campaigns\/(.+)$/.exec(page.url())?.[1] ?? '';
    const { campaign } = (await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${id}` })).json() as { campaign: Campaign };
    expect(campaign.rules.map((rule) => [rule.name, rule.options.priority, rule.options.exclusive ?? false, rule.giftConfig.gifts.map((gift) => gift.variantId)])).toEqual([
      ['Tier 2: spend 100 or more', 2, true, ['gid://shopify/ProductVariant/11', 'gid://shopify/ProductVariant/21']],
      ['Tier 1: spend 50 or more', 1, false, ['gid://shopify/ProductVariant/31']],
    ]);

    // Enabling it ticks the campaign step (the draft box first: a draft is never live).
    await page.getByLabel('Draft (a draft is never live)').uncheck();
    await page.getByRole('button', { name: 'Save campaign' }).last().click();
    await page.getByText('Tiered gifts is saved').waitFor();
    await page.goto(`${stack.base}/app/#/campaigns`);
    await page.getByText('0 of 4 steps done').waitFor();
    await page.getByRole('button', { name: 'Enable Tiered gifts' }).click();
    await page.getByText('1 of 4 steps done').waitFor();
    await checkScreen(page, 'getting-started-one-done');

    await page.getByRole('button', { name: 'Hide checklist of getting-started steps' }).click();
    await checklist.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Use template Tiered gifts' }).waitFor();
    expect(await checklist.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  async function shopDomain(): Promise<string> {
    const res = await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` });
    return (res.json() as { shop: { domain: string } }).shop.domain;
  }
});
