/**
 * The stand-in storefront in real Chromium, before any gift: the theme's page carries the
 * script tag as CONTRACT shows it, and the page's own cart calls (add, quantity changes,
 * remove, a refused add) go through the AJAX Cart API with the platform's shapes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorefrontStandin } from '../../dev/storefront/server.ts';
import { launchChromium, saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { addFromCard, cartOf } from '../support/shopper.ts';
import { startStorefrontStack } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

describe.skipIf(skipWithoutChromium())('stand-in storefront: the theme page and its cart in Chromium', () => {
  let stack: StorefrontStack;
  let standin: StorefrontStandin;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startStorefrontStack();
    ({ standin } = await stack.openShop('scale'));
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('includes the gifts script exactly as CONTRACT shows, pointing at the service', async () => {
    await page.goto(standin.url);
    const script = page.locator('script[data-proxy]');
    expect(await script.count()).toBe(1);
    const attributes = await script.evaluate((element) => ({
      src: element.getAttribute('src'),
      defer: element.hasAttribute('defer'),
      data: Object.fromEntries([...element.attributes].filter((a) => a.name.startsWith('data-')).map((a) => [a.name, a.value])),
    }));
    expect(attributes).toEqual({
      src: `${stack.serviceUrl}/storefront/v1/gifts.js`,
      defer: true,
      data: {
        'data-proxy': '/apps/gifts',
        'data-currency': 'USD',
        'data-market': 'us',
        'data-country': 'US',
        'data-customer-id': '',
        'data-customer-tags': '',
        'data-logged-in': 'false',
      },
    });
  });

  it('adds, changes and removes lines through the page’s own fetch calls, with the platform’s shapes', async () => {
    standin.resetRequests();
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expect.poll(() => page.locator('.cart-line').count()).toBe(1);
    let cart = await cartOf(page);
    expect(cart.currency).toBe('USD');
    expect(cart.items).toEqual([
      expect.objectContaining({ id: 10011, variant_id: 10011, product_id: 1001, quantity: 2, price: 3000, line_price: 6000, properties: {} }),
    ]);
    expect(cart.items[0]?.key).toMatch(/^10011:[0-9a-f]{32}$/);
    expect(cart.total_price).toBe(6000);

    await page.locator('.cart-line .increase').click();
    await expect.poll(async () => (await cartOf(page)).item_count).toBe(3);
    await expect.poll(() => page.locator('.cart-line').getAttribute('data-quantity')).toBe('3');

    await page.locator('.cart-line .remove').click();
    await expect.poll(() => page.locator('.cart-line').count()).toBe(0);
    cart = await cartOf(page);
    expect(cart.items).toEqual([]);

    const posts = standin.cartRequests().filter((request) => request.method === 'POST').map((request) => `${request.path} ${request.status}`);
    expect(posts).toEqual(['/cart/add.js 200', '/cart/change.js 200', '/cart/change.js 200']);
    expect(new Set(standin.cartRequests().map((request) => request.cartToken))).toEqual(new Set([cart.token]));
  });

  it('answers 422 when stock refuses an add, leaves the cart as it was, and the page shows the reason', async () => {
    await addFromCard(page, 'wool-beanie', 4);
    await expect.poll(() => page.locator('#cart-error').textContent()).toBe("You can't add more Wool Beanie to the cart.");
    expect((await cartOf(page)).items).toEqual([]);
    expect(standin.cartRequests().filter((request) => request.path === '/cart/add.js').at(-1)).toMatchObject({ status: 422 });

    await addFromCard(page, 'wool-beanie', 3);
    await expect.poll(() => page.locator('.cart-line').count()).toBe(1);
    await saveScreenshot(page, 'standin-cart');
  });

  it('keeps one cart per browser: a new shopper gets a new cart cookie', async () => {
    const first = (await cartOf(page)).token;
    await browser.context.clearCookies();
    await page.reload();
    const second = await cartOf(page);
    expect(second.token).not.toBe(first);
    expect(second.items).toEqual([]);
  });
});
