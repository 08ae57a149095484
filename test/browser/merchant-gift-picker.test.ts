/**
 * Issue 12, the gift picker of the campaign editor in real Chromium: the catalog is seeded
 * through the admin API (one sold-out variant, one not tracked); the merchant searches, reads
 * each variant's stock, picks a gift by keyboard, keeps a typed-in id for a second gift, saves,
 * and the API returns both gifts. Each chosen gift shows as its product (picture, title, price,
 * stock), the typed-in one as unknown, after the pick and after reopening the saved campaign, and
 * a product the catalog gained after the editor opened once picked; a saved gift that is product
 * #1,500 of 1,600 reads as its product when the campaign is reopened (issue 23 item 8).
 * axe and screenshots on the picker and the gift cards (checkScreen).
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogFamily } from '../../dev/platform/catalog.ts';
import { startStandinPlatform } from '../../dev/platform/standin.ts';
import type { StandinPlatform } from '../../dev/platform/standin.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

type Campaign = { id: string; rules: Array<{ giftConfig: { gifts: Array<{ variantId: string; quantity: number }> } }> };

describe.skipIf(skipWithoutChromium())('the gift picker, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;
  let images: StandinPlatform;
  let imageUrl: string;

  const seed = async (shopId: string, products: unknown[]) =>
    expect((await stack.t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/catalog`, payload: { products } })).statusCode).toBe(200);

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    images = await startStandinPlatform({ families: [], routes: [createCatalogFamily().route] });
    imageUrl = `${images.url}/cdn/product.svg?id=1`;
    shop = await stack.t.createShop('growth');
    const other = await stack.t.createShop('growth');
    await seed(shop.id, [
      {
        id: 'gid://shopify/Product/1',
        title: 'Enamel Mug',
        status: 'active',
        imageUrl,
        variants: [
          { id: 'gid://shopify/ProductVariant/11', title: 'Blue', inventoryQuantity: 12, inventoryPolicy: 'DENY', price: 1999 },
          { id: 'gid://shopify/ProductVariant/12', title: 'Red', inventoryQuantity: 0, inventoryPolicy: 'DENY' },
        ],
      },
      { id: 'gid://shopify/Product/2', title: 'Canvas Tote', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/21', title: 'Default Title', inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' }] },
    ]);
    await seed(other.id, [{ id: 'gid://shopify/Product/3', title: 'Enamel Mug of another shop', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/31', title: 'Default Title', inventoryQuantity: 5, inventoryPolicy: 'DENY' }] }]);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await images?.close();
  });

  /** The mug's card: picture, "Product – Variant", price in the shop's currency, stock. */
  const expectMug = async (card: Locator) => {
    await card.getByText('Enamel Mug – Blue', { exact: true }).waitFor();
    expect(await card.textContent()).toBe('Enamel Mug – Blue$19.99 · 12 in stock');
    expect(await card.locator(`img[src="${imageUrl}"]`).count()).toBe(1);
  };

  it('searches the catalog, shows stock, picks a gift by keyboard and saves it', async () => {
    const { page, errors } = await openPage(stack.browser);
    const field = (label: string) => page.getByLabel(label, { exact: true });

    await stack.signIn(page, shop.id);
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { name: 'New campaign', level: 1 }).waitFor();
    await field('Campaign name').fill('Mug with every order');

    await page.getByRole('button', { name: 'Choose from catalog for Rule 1 gift 1' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('3 variants').waitFor();
    await expect.poll(() => dialog.getByRole('button', { name: /^Choose / }).count()).toBe(3);
    await dialog.getByRole('button', { name: 'Choose Canvas Tote, Not tracked' }).waitFor();
    await checkScreen(page, 'gift-picker-all');

    await dialog.getByLabel('Search products').fill('enamel');
    await dialog.getByText('2 variants').waitFor();
    await dialog.getByRole('button', { name: 'Choose Enamel Mug – Red, Sold out' }).waitFor();
    expect(await dialog.getByText('12 in stock').count()).toBe(1);
    expect(await dialog.getByText('another shop').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /Canvas Tote/ }).count()).toBe(0);
    await checkScreen(page, 'gift-picker-search');

    await dialog.getByLabel('Search products').fill('nothing like this');
    await dialog.getByText(/No product matches/).waitFor();
    await checkScreen(page, 'gift-picker-empty');

    await dialog.getByLabel('Search products').fill('mug');
    const blue = dialog.getByRole('button', { name: 'Choose Enamel Mug – Blue, $19.99, 12 in stock' });
    await blue.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await field('Rule 1 gift 1 variant id').inputValue()).toBe('gid://shopify/ProductVariant/11');
    await expectMug(page.getByRole('group', { name: 'Rule 1 gift 1, chosen' }));

    // A variant the catalog does not know is still typed in.
    await page.getByRole('button', { name: 'Add gift to Rule 1' }).click();
    await field('Rule 1 gift 2 variant id').fill('gid://shopify/ProductVariant/777');

    // Cancel leaves the gift as it was.
    await page.getByRole('button', { name: 'Choose from catalog for Rule 1 gift 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await field('Rule 1 gift 2 variant id').inputValue()).toBe('gid://shopify/ProductVariant/777');
    const unknown = page.getByRole('group', { name: 'Rule 1 gift 2, chosen' });
    await expect.poll(() => unknown.textContent()).toBe('Unknown product (id gid://shopify/ProductVariant/777)');
    await checkScreen(page, 'gift-cards');

    // A product the catalog gained after the editor read it: the picked card names it all the same.
    await seed(shop.id, [{ id: 'gid://shopify/Product/4', title: 'Linen Napkin', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/41', title: 'Default Title', inventoryQuantity: 3, inventoryPolicy: 'DENY', price: 500 }] }]);
    await page.getByRole('button', { name: 'Add gift to Rule 1' }).click();
    await page.getByRole('button', { name: 'Choose from catalog for Rule 1 gift 3' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Choose Linen Napkin, $5.00, 3 in stock' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.getByRole('group', { name: 'Rule 1 gift 3, chosen' }).textContent()).toBe('Linen Napkin$5.00 · 3 in stock');

    await page.getByRole('button', { name: 'Create campaign' }).last().click();
    await page.getByRole('heading', { name: 'Edit Mug with every order', level: 1 }).waitFor();
    const id = /#\/campaigns\/(.+)$/.exec(page.url())?.[1] ?? '';
    const res = await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${id}` });
    const { campaign } = res.json() as { campaign: Campaign };
    expect(campaign.rules[0]?.giftConfig.gifts).toEqual([
      { variantId: 'gid://shopify/ProductVariant/11', quantity: 1 },
      { variantId: 'gid://shopify/ProductVariant/777', quantity: 1 },
      { variantId: 'gid://shopify/ProductVariant/41', quantity: 1 },
    ]);

    // Reopened: the saved gifts read as products again.
    await page.reload();
    await page.getByRole('heading', { name: 'Edit Mug with every order', level: 1 }).waitFor();
    await expectMug(page.getByRole('group', { name: 'Rule 1 gift 1, chosen' }));
    await unknown.getByText('Unknown product (id gid://shopify/ProductVariant/777)').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('names a saved gift past the first 1,000 products when its campaign is reopened', async () => {
    const big = await stack.t.createShop('growth');
    for (const start of [1, 801]) {
      await seed(
        big.id,
        Array.from({ length: 800 }, (_, i) => ({
          id: `gid://shopify/Product/${start + i}`,
          title: `Product ${start + i}`,
          status: 'active',
          variants: [{ id: `gid://shopify/ProductVariant/${start + i}`, title: 'Default Title', inventoryQuantity: 4, inventoryPolicy: 'DENY', price: 1500 }],
        })),
      );
    }
    const gift = { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1500', quantity: 1 }], fallbackOnOOS: false };
    const rule = { name: 'Spend 50', enabled: true, conditionTree: { type: 'cart.subtotal_gte', value: 5000 }, giftConfig: gift };
    const imported = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${big.id}/campaigns/import`,
      payload: { campaigns: [{ name: 'Deep catalog gift', enabled: false, isDraft: true, startAt: null, endAt: null, rules: [rule] }] },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const id = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';

    const { page, errors } = await openPage(stack.browser);
    await stack.signIn(page, big.id);
    await page.goto(`${stack.base}/app/#/campaigns/${id}`);
    await page.getByRole('heading', { name: 'Edit Deep catalog gift', level: 1 }).waitFor();
    const card = page.getByRole('group', { name: 'Rule 1 gift 1, chosen' });
    await card.getByText('Product 1500', { exact: true }).waitFor();
    expect(await card.textContent()).toBe('Product 1500$15.00 · 4 in stock');
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
