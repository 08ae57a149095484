/**
 * Issue 23, defect 2: every widget setting the admin shows has a visible effect on the
 * storefront, in real Chromium on the stand-in theme (its cart drawer holds the theme's progress
 * bar and reminder blocks; `/cart` and `/products/…` are its cart and product pages). These are
 * the five that were stored and never read: the progress bar's `placement`, the gift choice's
 * `layout`, the reminder's `showInCartDrawer` and `showOnProductPage`, and the gift choice's
 * `showPrices` (back since the catalog keeps variant prices).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;
const STICKERS = 20021;

type Json = Record<string, unknown>;

/** The demo widgets with `changes` merged into their sections. */
function widgets(changes: Record<string, Json>): Json {
  const base = demoWidgets(5000) as Record<string, Json>;
  return Object.fromEntries(Object.entries(base).map(([key, section]) => [key, { ...section, ...changes[key] }]));
}

/** The element's box and the window's size, in CSS pixels. */
async function boxOf(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not displayed`);
  const window = (await page.evaluate('({ width: innerWidth, height: innerHeight })')) as { width: number; height: number };
  return { ...box, window };
}

/**
 * Opens `url` after a new save of the widgets: the browser keeps the rules payload for a minute
 * (`private, max-age=60`), as a shopper's would, so its HTTP cache is cleared first.
 */
async function reopen(page: Page, url: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  await openStorefront(page, url);
}

/** A pass now, and the timers it set (the reminder's delay of 0) run. */
async function passAndSettle(page: Page): Promise<void> {
  await page.evaluate('window.svcGifts.refresh().then(() => new Promise((resolve) => setTimeout(resolve, 50)))');
}

/** Whether the widget's host is inside the stand-in's cart drawer (the theme's blocks). */
const inDrawer = (page: Page, host: string) => page.locator(`#cart-drawer #${host}`).count();

describe.skipIf(skipWithoutChromium())('every widget setting has a visible effect, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('places the progress bar in the cart drawer, at the top of the page, or on the cart page only', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    const bar = page.locator('#svc-gifts-progress .bar');

    await stack.admin.putWidgets(shopId, widgets({ progressBar: { placement: 'cart_drawer' }, giftChoice: { enabled: false } }));
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => bar.getAttribute('data-placement')).toBe('block');
    expect(await inDrawer(page, 'svc-gifts-progress')).toBe(1);

    await stack.admin.putWidgets(shopId, widgets({ progressBar: { placement: 'announcement_bar' }, giftChoice: { enabled: false } }));
    await reopen(page, standin.url);
    await expect.poll(() => bar.getAttribute('data-placement')).toBe('top');
    expect(await inDrawer(page, 'svc-gifts-progress')).toBe(0);
    const top = await boxOf(page, '#svc-gifts-progress .bar');
    expect([top.y, top.x, top.width]).toEqual([0, 0, top.window.width]);
    await saveScreenshot(page, 'progress-bar-announcement');

    // On the cart page only: none on the home page (its chunk is not even fetched, press or not: progress-gate.ts), in the block on /cart.
    await stack.admin.putWidgets(shopId, widgets({ progressBar: { placement: 'cart_page' }, giftChoice: { enabled: false } }));
    await reopen(page, standin.url);
    await page.locator('header strong').click();
    await passAndSettle(page);
    expect(await page.evaluate('window.svcGiftsProgress !== undefined')).toBe(false);
    expect(await page.locator('#svc-gifts-progress').count()).toBe(0);
    await reopen(page, `${standin.url}/cart`);
    await expect.poll(() => bar.getAttribute('data-placement')).toBe('block');
    expect(await inDrawer(page, 'svc-gifts-progress')).toBe(1);
  });

  it('lays the gift choice out as a dialog, a drawer along the right edge, or inline in the cart drawer', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Pick a gift over $50', 5000, [MUG, STICKERS], 'customer_choice'));
    const dialog = page.locator('#svc-gifts-choice [role=dialog]');

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { layout: 'modal' } }));
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const modal = await boxOf(page, '#svc-gifts-choice [role=dialog]');
    expect(Math.abs(modal.x + modal.width / 2 - modal.window.width / 2)).toBeLessThan(2);
    expect(modal.height).toBeLessThan(modal.window.height / 2);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { layout: 'drawer' } }));
    await reopen(page, standin.url);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const drawer = await boxOf(page, '#svc-gifts-choice [role=dialog]');
    expect([Math.round(drawer.x + drawer.width), drawer.y, Math.round(drawer.height)]).toEqual([drawer.window.width, 0, drawer.window.height]);
    await saveScreenshot(page, 'gift-choice-drawer');

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { layout: 'inline' } }));
    await reopen(page, standin.url);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await inDrawer(page, 'svc-gifts-choice')).toBe(1);
    expect(await dialog.getAttribute('aria-modal')).toBe('false');
    // In the page's flow: the shopper can still use the page, and the choice still adds the gift.
    expect(await page.evaluate('document.activeElement === document.body')).toBe(true);
    await saveScreenshot(page, 'gift-choice-inline');
    await dialog.getByRole('button', { name: 'Add gift' }).click();
    await expectGiftVariants(page, [MUG]);
  });

  it('shows each gift’s usual price struck through and the free label only with showPrices', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Pick a gift over $50', 5000, [MUG, STICKERS], 'customer_choice'));
    const dialog = page.locator('#svc-gifts-choice [role=dialog]');
    const labels = dialog.locator('label');

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { showPrices: false } }));
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await labels.allTextContents()).toEqual(['Enamel Mug', 'Sticker Pack']);
    expect(await dialog.locator('s').count()).toBe(0);

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { showPrices: true, freeLabel: 'FREE' } }));
    await reopen(page, standin.url);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    // The catalog's prices ($12.00 and $5.00), in the cart's currency, which is the shop's.
    expect(await labels.allTextContents()).toEqual(['Enamel Mug $12.00 FREE', 'Sticker Pack $5.00 FREE']);
    expect(await dialog.locator('s').allTextContents()).toEqual(['$12.00', '$5.00']);
    expect(await dialog.locator('s').first().evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).textDecorationLine)).toBe('line-through');
    await saveScreenshot(page, 'gift-choice-prices');
    await dialog.getByRole('button', { name: 'Add gift' }).click();
    await expectGiftVariants(page, [MUG]);
  });

  it('puts the reminder in the cart drawer or at the bottom, and on product pages only when asked', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Pick a gift over $50', 5000, [MUG, STICKERS], 'customer_choice'));
    // The gift choice off: a shopper who qualifies sees the reminder.
    const reminder = page.locator('#svc-gifts-reminder .reminder');

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { enabled: false }, reminder: { showInCartDrawer: true } }));
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expect.poll(() => reminder.getAttribute('data-placement')).toBe('block');
    expect(await inDrawer(page, 'svc-gifts-reminder')).toBe(1);

    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { enabled: false }, reminder: { showInCartDrawer: false } }));
    await reopen(page, standin.url);
    await expect.poll(() => reminder.getAttribute('data-placement')).toBe('bottom');
    expect(await inDrawer(page, 'svc-gifts-reminder')).toBe(0);
    const bottom = await boxOf(page, '#svc-gifts-reminder .reminder');
    expect(Math.round(bottom.y + bottom.height)).toBe(bottom.window.height);

    // A product page: no reminder by default (the pass ran and left the choice waiting) …
    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { enabled: false } }));
    await reopen(page, `${standin.url}/products/organic-cotton-tee`);
    await expect.poll(() => page.evaluate('window.svcGifts.lastResult?.operations.length')).toBe(1);
    await expect.poll(() => page.evaluate('window.svcGiftsWidgets !== undefined')).toBe(true);
    await passAndSettle(page);
    expect(await page.locator('#svc-gifts-reminder').count()).toBe(0);
    // … and with showOnProductPage, there too.
    await stack.admin.putWidgets(shopId, widgets({ giftChoice: { enabled: false }, reminder: { showOnProductPage: true } }));
    await reopen(page, `${standin.url}/products/organic-cotton-tee`);
    await expect.poll(() => reminder.getAttribute('data-placement')).toBe('block');
  });
});
