/**
 * Issue 12, the widgets editor in real Chromium: the preview is drawn by the storefront
 * package's own renderers (its shadow roots inside the page's preview box); a merchant changes
 * the toast's message and the popup's title, sees the preview change, saves, and GET /widgets
 * through the API returns what was saved. A bad colour comes back at its field; below Scale the
 * custom code says it is plan-gated. The progress bar's steps are the live rules' thresholds,
 * listed read-only with a link to their rule (issue 23), and the preview draws them.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { ARTIFACT_DIR, skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

describe.skipIf(skipWithoutChromium())('merchant admin widgets, in Chromium', () => {
  let stack: MerchantAdminStack;
  let browser: Browser;
  let shop: TestShop;
  let campaignId: string;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    ({ browser } = stack);
    shop = await stack.t.createShop('growth');
    // A live rule "spend 50.00 (45.00 in EUR), get the mug", and the mug in the catalog.
    const tree = { type: 'cart.subtotal_gte', value: 5000, currencyOverrides: { EUR: 4500 } };
    const imported = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [campaign('Spend 50, get a mug', { enabled: true, isDraft: false, rules: [rule('Spend 50', tree)] })] },
    });
    expect(imported.statusCode, imported.body).toBeLessThan(300);
    campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
    const catalog = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/catalog`,
      payload: { products: [{ id: 'gid://shopify/Product/1', title: 'Enamel Mug', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/1', title: 'Default Title', inventoryQuantity: 5, inventoryPolicy: 'DENY' }] }] },
    });
    expect(catalog.statusCode, catalog.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('edits the widgets with a live preview from the storefront renderer and saves them', async () => {
    // The bad colour's 400 is the one failed request expected (the browser logs it).
    const { page, errors } = await openPage(browser, /status of 400/);

    // GET /widgets of the API as mounted for this shop's session (a Growth shop has no API key:
    // the public API needs Scale), the very handler of /api/v1/widgets.
    const readWidgets = async () => {
      const res = await page.request.get(`${stack.base}/app/api/v1/widgets`);
      expect(res.status()).toBe(200);
      return (await res.json()) as unknown;
    };
    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/widgets`);
    await page.getByRole('heading', { name: 'Widgets', level: 1 }).waitFor();
    const preview = page.getByRole('region', { name: 'Widget preview' });
    // The toast, drawn by showToast into its shadow root inside the preview box.
    await preview.getByRole('status').getByText('Mug was added to your cart').waitFor();
    expect(await page.getByText('Needs the Scale plan').count()).toBe(1);
    await check(page, 'widgets');

    await page.getByLabel('Toast message').fill('Enjoy your {{giftTitle}}!');
    await preview.getByText('Enjoy your Mug!').waitFor();
    await page.getByLabel('Toast background colour').fill('#7c3aed');
    await expect.poll(() => preview.getByRole('status').evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).backgroundColor)).toBe('rgb(124, 58, 237)');

    // The promo popup: its dialog, inside the preview, with the new title.
    await page.getByRole('button', { name: 'Preview promo popup' }).click();
    await page.getByLabel('Popup title').fill('A tote bag on us');
    await preview.getByRole('dialog', { name: 'A tote bag on us' }).waitFor();
    expect(await page.getByLabel('Popup title').evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await check(page, 'widgets-popup-preview');

    // The gift choice with prices: the sample gifts' struck through, then the free label.
    await page.getByRole('button', { name: 'Preview gift choice' }).click();
    const choice = preview.getByRole('dialog');
    await choice.waitFor();
    expect(await choice.locator('s').count()).toBe(0);
    await page.getByLabel('Show the gifts’ prices').check();
    await expect.poll(() => choice.locator('label').allTextContents()).toEqual(['Mug $12.00 Free', 'Tote bag $25.00 Free']);
    await page.getByLabel('Free label').fill('On us');
    await expect.poll(() => choice.locator('strong').allTextContents()).toEqual(['On us', 'On us']);

    // The bar's steps: the live rule's, read-only, with its gift by name and a link to the rule.
    await page.getByRole('button', { name: 'Preview progress bar' }).click();
    const steps = page.getByRole('list', { name: 'Progress bar steps' });
    await steps.getByText('Spend $50.00: Enamel Mug').waitFor();
    expect(await steps.textContent()).toContain('€45.00');
    expect(await steps.getByRole('link', { name: 'Edit rule Spend 50' }).getAttribute('href')).toBe(`#/campaigns/${campaignId}`);
    expect(await page.getByLabel(/Threshold 1 amount/).count()).toBe(0);
    await preview.getByRole('progressbar').waitFor();
    await expect.poll(() => preview.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
    await page.getByLabel('Progress message').fill('{{remaining}} to go for {{gift}}');
    await preview.getByText('$20.00 to go for Enamel Mug').waitFor();
    await check(page, 'widgets-progress-steps');

    // A bad colour: the server's message at that field, nothing saved.
    await page.getByLabel('Bar colour').fill('green');
    await page.getByRole('button', { name: 'Save widgets' }).first().click();
    await page.getByText(/could not be saved|Invalid|Expected a hex colour/).first().waitFor();
    await expect.poll(async () => page.getByLabel('Bar colour').getAttribute('aria-invalid')).toBe('true');
    await check(page, 'widgets-error');
    expect(((await readWidgets()) as { widgets: { _version: number } }).widgets._version).toBe(0);

    await page.getByLabel('Bar colour').fill('#16a34a');
    await page.getByRole('button', { name: 'Save widgets' }).first().click();
    await page.getByText('Widget settings saved').waitFor();

    const saved = (await readWidgets()) as {
      widgets: { _version: number; toast: { message: string; backgroundColor: string }; promoPopup: { title: string }; progressBar: { thresholds: Array<{ amountCents: number }> } };
    };
    expect(saved.widgets._version).toBeGreaterThan(0);
    expect(saved.widgets.toast).toMatchObject({ message: 'Enjoy your {{giftTitle}}!', backgroundColor: '#7c3aed' });
    expect(saved.widgets.promoPopup.title).toBe('A tote bag on us');
    expect((saved.widgets as unknown as { giftChoice: unknown }).giftChoice).toMatchObject({ showPrices: true, freeLabel: 'On us' });
    // Nothing typed by hand: SPEC's thresholds field stays as it was (empty), unread.
    expect(saved.widgets.progressBar.thresholds).toEqual([]);

    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('keeps the preview in view while editing: sticky beside the form at 1440 px, above it at 360 px', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, shop.id);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${stack.base}/app/#/widgets`);
    const preview = page.getByRole('region', { name: 'Widget preview' });
    await preview.getByRole('status').waitFor();
    /** Whether the preview's heading is on screen and not under the fixed top bar. */
    const headingShown = () =>
      page.getByRole('heading', { name: 'Live preview' }).evaluate((heading) => {
        const box = heading.getBoundingClientRect();
        return heading.contains(heading.ownerDocument.elementFromPoint(box.x + 2, box.y + box.height / 2));
      });
    /** The preview box's top and bottom in the window, and the window's height. */
    const where = async () => {
      const box = await preview.boundingBox();
      const height = (await page.evaluate('innerHeight')) as number;
      return { top: box?.y ?? Number.NaN, bottom: (box?.y ?? Number.NaN) + (box?.height ?? 0), height, scrolled: (await page.evaluate('scrollY')) as number };
    };

    // The reminder, the last section, far down the form: the preview is still on screen, beside it.
    await page.getByRole('button', { name: 'Preview reminder' }).click();
    await page.getByLabel('Reminder delay (seconds)').scrollIntoViewIfNeeded();
    await page.getByLabel('Reminder message').fill('Pick your free gift!');
    await preview.getByText('Pick your free gift!').waitFor();
    const wide = await where();
    expect(wide.scrolled).toBeGreaterThan(1000);
    expect(wide.top).toBeGreaterThanOrEqual(0);
    expect(wide.bottom).toBeLessThanOrEqual(wide.height);
    expect(await headingShown()).toBe(true);
    await page.screenshot({ path: join(ARTIFACT_DIR, 'merchant-admin-widgets-sticky-1440.png') });

    // At 360 px the preview comes first, and a section's Preview button brings it back into view.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.evaluate('scrollTo(0, 0)');
    const firstSection = await page.getByRole('heading', { name: 'Toast (a gift was added)' }).boundingBox();
    expect((await where()).bottom).toBeLessThan(firstSection?.y ?? 0);
    await page.getByLabel('Reminder delay (seconds)').scrollIntoViewIfNeeded();
    expect((await where()).bottom).toBeLessThan(0);
    await page.getByRole('button', { name: 'Preview reminder' }).click();
    await expect.poll(async () => (await where()).top).toBeGreaterThanOrEqual(0);
    const narrow = await where();
    expect(narrow.bottom).toBeLessThanOrEqual(narrow.height);
    expect(await headingShown()).toBe(true);
    await page.screenshot({ path: join(ARTIFACT_DIR, 'merchant-admin-widgets-preview-360.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('edits the texts per language: the default as placeholder, the preview in that language, saved in translations', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/widgets`);
    const preview = page.getByRole('region', { name: 'Widget preview' });
    await preview.getByRole('status').waitFor();

    await page.getByLabel('Add a language').fill('français');
    await page.getByRole('button', { name: 'Add language' }).click();
    await page.getByText('A locale code such as fr, de or pt-BR').waitFor();
    await page.getByLabel('Add a language').fill('fr');
    await page.getByRole('button', { name: 'Add language' }).click();
    const french = page.getByLabel('Toast message (fr)');
    expect(await french.getAttribute('placeholder')).toContain('{{giftTitle}}');
    await french.fill('{{giftTitle}} offert !');
    await preview.getByText('Mug offert !').waitFor();
    await check(page, 'widgets-french');
    // Back to the default texts: the preview speaks the default language again.
    await page.getByLabel('Texts being edited').selectOption('');
    await expect.poll(() => preview.getByRole('status').textContent()).not.toContain('offert');

    await page.getByRole('button', { name: 'Save widgets' }).first().click();
    await page.getByText('Widget settings saved').waitFor();
    const res = await page.request.get(`${stack.base}/app/api/v1/widgets`);
    const saved = (await res.json()) as { widgets: { toast: { translations: unknown } } };
    expect(saved.widgets.toast.translations).toEqual({ fr: { message: '{{giftTitle}} offert !' } });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  const check = checkScreen;
});
