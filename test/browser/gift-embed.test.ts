/**
 * Issue 21, item 5, in Chromium: the theme app extension as a shop runs it. The stand-in theme
 * renders the app embed and the app blocks from extensions/gift-embed's Liquid (liquidjs), gifts.js
 * comes from the extension's assets by `asset_url`, the progress bar's chunk comes once its block
 * can be seen (progress-gate.ts: in the window, or at the first press; with the drawer open beside
 * the products, at once; in a closed drawer, `?drawer=closed`, not before), and the widgets' chunk
 * (gift choice, toast, reminder…) is fetched only when a choice waits for the shopper, from
 * `data-widgets-src`.
 */
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_CEILING_BYTES, PROGRESS_CHUNK_CEILING_BYTES } from '../../packages/storefront/scripts/build-script.ts';
import { EMBED_ASSET_PATH } from '../../dev/storefront/embed-liquid.ts';
import { DEMO_THRESHOLD_CENTS, demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, giftLines, giftWrites, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;
const STICKERS = 20021;

/** The paths of the extension's assets the page fetched, in order. */
function watchAssets(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith(EMBED_ASSET_PATH)) fetched.push(pathname.slice(EMBED_ASSET_PATH.length));
  });
  return fetched;
}

/**
 * The extension's JavaScript a page load fetches before any interaction: opens `url` with the
 * browser cache off (each load counts in full), waits for the first pass and for the network to
 * settle (a chunk a pass asks for is fetched by then), and answers each asset's gzip -9 bytes.
 */
async function scriptBytesBeforeInteraction(page: Page, url: string): Promise<Record<string, number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bodies: Array<Promise<[string, number]>> = [];
  const onResponse = (response: Response) => {
    const { pathname } = new URL(response.url());
    if (!pathname.startsWith(EMBED_ASSET_PATH) || !pathname.endsWith('.js')) return;
    bodies.push(response.body().then((body) => [pathname.slice(EMBED_ASSET_PATH.length), gzipSync(body, { level: 9 }).byteLength]));
  };
  page.on('response', onResponse);
  await openStorefront(page, url);
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  await cdp.detach();
  return Object.fromEntries(await Promise.all(bodies));
}

describe.skipIf(skipWithoutChromium())('the theme app extension on the stand-in storefront, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('loads gifts.js from the app embed, draws the progress bar in its app block from its chunk, and fetches the widgets only when the gift choice opens', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    const { campaignId, ruleIds } = await stack.admin.launchCampaign(
      shopId,
      subtotalGiftCampaign('Pick a gift over $50', 5000, [MUG, STICKERS], 'customer_choice'),
    );
    await stack.admin.putWidgets(shopId, demoWidgets(5000));
    const fetched = watchAssets(page);
    await openStorefront(page, standin.url);

    // The embed's tag, as its Liquid wrote it from the cart, localization and (no) customer.
    const tag = page.locator(`script[src^="${EMBED_ASSET_PATH}gifts.js?v="]`);
    expect(await tag.count()).toBe(1);
    const data = await tag.evaluate((element) => ({ ...(element as unknown as { dataset: Record<string, string> }).dataset }));
    expect(data).toEqual({
      proxy: '/apps/gifts',
      currency: 'USD',
      market: 'us',
      country: 'US',
      customerId: '',
      customerTags: '',
      loggedIn: 'false',
      locale: 'en',
      widgetsSrc: expect.stringMatching(new RegExp(`^${EMBED_ASSET_PATH}gifts-widgets\\.js\\?v=[0-9a-f]{16}$`)),
      progressSrc: expect.stringMatching(new RegExp(`^${EMBED_ASSET_PATH}gifts-progress\\.js\\?v=[0-9a-f]{16}$`)),
      debugSrc: expect.stringMatching(new RegExp(`^${EMBED_ASSET_PATH}gifts-debug\\.js\\?v=[0-9a-f]{16}$`)),
    });
    // The first pass draws the bar (the shop has it on): its chunk, and nothing else.
    const bar = page.locator('[data-svc-gifts-progress] #svc-gifts-progress .bar');
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('5000');
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);

    // Below the threshold: the bar, inside the merchant's app block; still no widgets.
    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('2000');
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);

    // Over it: a choice waits, so the chunk comes, once, and the dialog opens.
    await addFromCard(page, 'organic-cotton-tee', 1);
    const dialog = page.locator('#svc-gifts-choice [role=dialog]');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js', 'gifts-widgets.js']);
    expect(giftWrites(standin.cartRequests())).toEqual([]);
    await saveScreenshot(page, 'embed-gift-choice');

    await dialog.locator(`input[value="gid://shopify/ProductVariant/${STICKERS}"]`).check();
    await dialog.getByRole('button', { name: 'Add gift' }).click();
    await expectGiftVariants(page, [STICKERS]);
    const [gift] = await giftLines(page);
    expect(gift?.properties).toMatchObject({ _svc_campaign_id: campaignId, _svc_rule_id: ruleIds[0] });
    // The toast of the added gift is drawn by the chunk already there: nothing more is fetched.
    await expect.poll(() => page.locator('#svc-gifts-toast .toast').textContent()).toContain('Sticker Pack');
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('0');
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js', 'gifts-widgets.js']);
  });

  it('fills the signed-in customer from Liquid, and an automatic gift comes through the embed', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, demoWidgets(5000));
    await page.goto(`${standin.url}/account/login?customer_id=501`);
    await openStorefront(page, standin.url);
    const tag = page.locator(`script[src^="${EMBED_ASSET_PATH}gifts.js?v="]`);
    const data = await tag.evaluate((element) => ({ ...(element as unknown as { dataset: Record<string, string> }).dataset }));
    expect(data).toMatchObject({ customerId: '501', customerTags: 'vip', loggedIn: 'true' });

    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);
    expect(giftWrites(standin.cartRequests()).map((request) => `${request.path} ${request.status}`)).toEqual(['/cart/add.js 200']);
  });

  it('fetches gifts.js only before any interaction when the bar is in a closed cart drawer, with an empty and with a filled cart; gifts.js and the bar when it is seen at first paint', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, demoWidgets(5000));
    const closedDrawer = `${standin.url}/?drawer=closed`;

    const empty = await scriptBytesBeforeInteraction(page, closedDrawer);
    expect(Object.keys(empty)).toEqual(['gifts.js']);
    expect(empty['gifts.js']).toBeLessThanOrEqual(FIRST_LOAD_CEILING_BYTES);

    // The shopper fills the cart (a press: the bar's chunk comes; the gift's toast loads the widgets), then opens a page.
    await addFromCard(page, 'organic-cotton-tee', 3);
    await expectGiftVariants(page, [MUG]);
    const filled = await scriptBytesBeforeInteraction(page, closedDrawer);
    expect(filled).toEqual(empty);
    expect((await giftLines(page)).length).toBe(1);

    // The drawer open beside the products: the block is in the window at first paint, so the bar comes at once.
    const visible = await scriptBytesBeforeInteraction(page, standin.url);
    expect(Object.keys(visible).sort()).toEqual(['gifts-progress.js', 'gifts.js']);
    expect(visible['gifts-progress.js']).toBeLessThanOrEqual(PROGRESS_CHUNK_CEILING_BYTES);
    const total = Object.values(visible).reduce((sum, bytes) => sum + bytes, 0);
    console.log(`before any interaction (gzip -9 B): closed drawer, empty cart ${JSON.stringify(empty)}, filled cart ${JSON.stringify(filled)}; bar seen at first paint ${JSON.stringify(visible)} = ${total}`);
  });

  it('draws the bar of a closed cart drawer when the drawer opens without a press, or after a first click or key press elsewhere', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, demoWidgets(5000));
    const fetched = watchAssets(page);
    const bar = page.locator('[data-svc-gifts-progress] #svc-gifts-progress .bar');
    const closedDrawer = async () => {
      fetched.length = 0;
      await openStorefront(page, `${standin.url}/?drawer=closed`);
      await page.waitForLoadState('networkidle');
      expect(fetched).toEqual(['gifts.js']);
      expect(await bar.count()).toBe(0);
    };

    // A theme opens its drawer by itself (after its own add to cart): the block comes into the window.
    await closedDrawer();
    await page.evaluate(() => (globalThis as unknown as { standinDrawer(open: boolean): void }).standinDrawer(true));
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe(String(DEMO_THRESHOLD_CENTS));
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);

    // A click elsewhere, the drawer still closed: the bar is drawn into it, there when it opens.
    await closedDrawer();
    await page.locator('header strong').click();
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe(String(DEMO_THRESHOLD_CENTS));
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);
    await page.locator('#cart-toggle').click();
    await expect.poll(() => bar.evaluate((element) => element.getBoundingClientRect().right <= element.ownerDocument.documentElement.clientWidth)).toBe(true);
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);

    // A key press (a keyboard shopper tabbing to the cart button).
    await closedDrawer();
    await page.keyboard.press('Tab');
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe(String(DEMO_THRESHOLD_CENTS));
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);
  });

  it('never fetches the bar placed on the cart page off /cart, not even at a press; on /cart it comes with its block', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, { ...demoWidgets(5000), progressBar: { enabled: true, placement: 'cart_page', thresholds: [] } });
    const fetched = watchAssets(page);
    await openStorefront(page, standin.url);
    await page.locator('header strong').click();
    await page.keyboard.press('Tab');
    await page.waitForLoadState('networkidle');
    expect(fetched).toEqual(['gifts.js']);
    expect(await page.evaluate(() => 'svcGiftsProgress' in globalThis)).toBe(false);

    fetched.length = 0;
    await openStorefront(page, `${standin.url}/cart`);
    await expect.poll(() => page.locator('[data-svc-gifts-progress] #svc-gifts-progress .bar').getAttribute('data-remaining')).toBe('5000');
    expect(fetched).toEqual(['gifts.js', 'gifts-progress.js']);
  });

  it('fetches the debug console only with ?svc_debug=1 on a shop that allows it, which logs each plan and puts the traces on lastResult', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    const fetched = watchAssets(page);
    const logs: string[] = [];
    page.on('console', (message) => logs.push(message.text()));
    const firstTrace = () =>
      page.evaluate(() => (globalThis as unknown as { svcGifts: { lastResult?: { results: Array<{ trace?: { type: string } }> } } }).svcGifts.lastResult?.results[0]?.trace?.type);

    // The shop does not allow debugging: the parameter does nothing.
    await openStorefront(page, `${standin.url}/?svc_debug=1`);
    expect(fetched).toEqual(['gifts.js']);
    expect(await firstTrace()).toBeUndefined();

    // A shop that allows it (its own: a payload already served stays cached for 60 s), without the
    // parameter: no chunk either.
    const allowed = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(allowed.shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.patchSettings(allowed.shopId, { storefront: { debug: true } });
    fetched.length = 0;
    await openStorefront(page, allowed.standin.url);
    expect(fetched).toEqual(['gifts.js']);

    fetched.length = 0;
    await openStorefront(page, `${allowed.standin.url}/?svc_debug=1`);
    await expect.poll(firstTrace).toBe('cart.subtotal_gte');
    expect(fetched).toEqual(['gifts.js', 'gifts-debug.js']);
    expect(logs.some((text) => text.includes('[svc-gifts] evaluation: 0/1 rules matched'))).toBe(true);
  });
});
