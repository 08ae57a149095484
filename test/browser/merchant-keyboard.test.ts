/**
 * Issue 23 item 6 (part), in Chromium: where keyboard focus goes after the gift picker closes
 * (back to the button that opened it, after a pick, Cancel or Escape) and after "Create campaign"
 * (the new page's heading), never `<body>`; and the top bar's "Sign out" on one line at 360 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

/** The focused element as "tag|accessible text", e.g. `button|Choose from catalog for Rule 1 gift 1`. */
const focused = (page: Page) =>
  page.locator('body').evaluate((body) => {
    const element = body.ownerDocument.activeElement;
    if (!element || element === body) return 'body';
    return `${element.tagName.toLowerCase()}|${element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''}`;
  });

/** How many lines the Sign out button's text takes, the button's height and min-height, its right edge. */
const signOutBox = (page: Page) =>
  page.getByRole('button', { name: 'Sign out' }).evaluate((button) => {
    // One client rectangle per line box of the text itself (the element boxes left out).
    const doc = button.ownerDocument;
    const walker = doc.createTreeWalker(button, 4 /* NodeFilter.SHOW_TEXT */);
    const tops = new Set<number>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = doc.createRange();
      range.selectNodeContents(node);
      const rects = range.getClientRects();
      for (let i = 0; i < rects.length; i += 1) {
        const rect = rects.item(i);
        if (rect && rect.width > 0) tops.add(Math.round(rect.top));
      }
    }
    const box = button.getBoundingClientRect();
    // Polaris' button is taller under 768 px (a touch target); one line fits in its min-height, two grow it.
    const minHeight = Math.round(parseFloat(doc.defaultView?.getComputedStyle(button).minHeight ?? '0'));
    return { lines: tops.size, height: Math.round(box.height), minHeight, right: box.right };
  });

describe.skipIf(skipWithoutChromium())('keyboard focus and the narrow header, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    shop = await stack.t.createShop('growth');
    const res = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/catalog`,
      payload: { products: [{ id: 'gid://shopify/Product/1', title: 'Enamel Mug', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/11', title: 'Default Title', inventoryQuantity: 12, inventoryPolicy: 'DENY' }] }] },
    });
    expect(res.statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('focus returns to the picker button after a pick, Cancel and Escape, and lands on the new page heading after Create campaign', async () => {
    const { page, errors } = await openPage(stack.browser);
    await stack.signIn(page, shop.id);
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { name: 'New campaign', level: 1 }).waitFor();
    await page.getByLabel('Campaign name', { exact: true }).fill('Mug for everyone');

    const opener = page.getByRole('button', { name: 'Choose from catalog for Rule 1 gift 1' });
    const button = 'button|Choose from catalog for Rule 1 gift 1';
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('1 variant').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe(button);

    await page.keyboard.press('Enter');
    await dialog.getByText('1 variant').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe(button);

    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Choose Enamel Mug, 12 in stock' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Rule 1 gift 1 variant id', { exact: true }).inputValue()).toBe('gid://shopify/ProductVariant/11');
    await expect.poll(() => focused(page)).toBe(button);

    // By keyboard, the form's own button at the end of the form.
    await page.getByRole('button', { name: 'Create campaign' }).last().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Edit Mug for everyone', level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toBe('h1|Edit Mug for everyone');
    // Tab goes on from the heading into the page (from <body> it would start at the top bar).
    await page.keyboard.press('Tab');
    expect(await page.locator('body').evaluate((body) => body.ownerDocument.activeElement?.closest('main') !== null && body.ownerDocument.activeElement?.tagName === 'BUTTON')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('"Sign out" stays on one line, inside the screen, at 360 px', async () => {
    const { page, errors } = await openPage(stack.browser);
    await stack.signIn(page, shop.id);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
    const wide = await signOutBox(page);
    expect(wide).toMatchObject({ lines: 1, height: wide.minHeight });
    await page.setViewportSize({ width: 360, height: 800 });
    const narrow = await signOutBox(page);
    expect(narrow).toMatchObject({ lines: 1, height: narrow.minHeight });
    expect(narrow.minHeight).toBeGreaterThan(0);
    expect(narrow.right).toBeLessThanOrEqual(360);
    // At 1440 px the shop's domain is in the top bar on one line (Polaris hides it under 768 px).
    await page.setViewportSize({ width: 1440, height: 900 });
    const domain = page.getByTitle(/^shop-.+\.example\.com$/);
    expect(await domain.evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).textOverflow)).toBe('ellipsis');
    expect((await domain.boundingBox())?.height).toBeLessThan(2 * wide.height);
    await checkScreen(page, 'header');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
