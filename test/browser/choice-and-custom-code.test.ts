/**
 * Issue 10, part 4, in Chromium: a customer-choice rule shows the choice and adds only the
 * chosen gift; the merchant's `customCode` runs on the Scale plan and not on Pro.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import type { Plan } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, giftLines, giftWrites, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;
const STICKERS = 20021;

const CUSTOM_CODE = {
  html: '<div id="merchant-banner">Free mug over $50</div>',
  css: '#merchant-banner { background: rgb(250, 204, 21); padding: 8px; }',
  js: 'document.body.dataset.merchantCode = "ran";',
};

describe.skipIf(skipWithoutChromium())('gift choice and custom code, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('shows the gift choice of a customer-choice rule and adds only the chosen gift', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    const { campaignId, ruleIds } = await stack.admin.launchCampaign(
      shopId,
      subtotalGiftCampaign('Pick a gift over $50', 5000, [MUG, STICKERS], 'customer_choice'),
    );
    await stack.admin.putWidgets(shopId, demoWidgets(5000));
    await openStorefront(page, standin.url);
    standin.resetRequests();

    await addFromCard(page, 'organic-cotton-tee', 2);
    const dialog = page.locator('#svc-gifts-choice [role=dialog]');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const options = dialog.locator('input[type=radio]');
    expect(await options.count()).toBe(2);
    // Each option carries the gift's name from the catalog (the payload's giftTitles).
    expect(await dialog.getByLabel('Enamel Mug').count()).toBe(1);
    expect(await dialog.getByLabel('Sticker Pack').count()).toBe(1);
    // Nothing is added before the shopper chooses.
    expect(giftWrites(standin.cartRequests())).toEqual([]);
    await saveScreenshot(page, 'gift-choice');

    await dialog.locator(`input[value="gid://shopify/ProductVariant/${STICKERS}"]`).check();
    await dialog.getByRole('button', { name: 'Add gift' }).click();
    await expectGiftVariants(page, [STICKERS]);
    const [gift] = await giftLines(page);
    expect(gift?.properties).toMatchObject({ _svc_campaign_id: campaignId, _svc_rule_id: ruleIds[0] });
    // Still only the chosen one after the script's next passes, and the choice is not offered again.
    await page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
    await expectGiftVariants(page, [STICKERS]);
    expect(await page.locator('#svc-gifts-choice').count()).toBe(0);
    expect(giftWrites(standin.cartRequests()).map((request) => `${request.path} ${request.status}`)).toEqual(['/cart/add.js 200']);
  });

  async function shopWithCustomCode(plan: Plan) {
    const { shopId, standin } = await stack.openShop(plan);
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, demoWidgets(5000, CUSTOM_CODE));
    return standin;
  }

  it('runs the merchant’s customCode (HTML, CSS and JS) on the Scale plan', async () => {
    const standin = await shopWithCustomCode('scale');
    await openStorefront(page, standin.url);
    await expect.poll(() => page.locator('body').getAttribute('data-merchant-code')).toBe('ran');
    const banner = page.locator('#merchant-banner');
    expect(await banner.textContent()).toBe('Free mug over $50');
    // The page has DOM types, this file does not: the expression is evaluated in the page.
    expect(await page.evaluate('getComputedStyle(document.getElementById("merchant-banner")).backgroundColor')).toBe('rgb(250, 204, 21)');
    await saveScreenshot(page, 'custom-code-scale');
  });

  it('does not run customCode on the Pro plan, while the gift still works', async () => {
    const standin = await shopWithCustomCode('pro');
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);
    expect(await page.locator('body').getAttribute('data-merchant-code')).toBeNull();
    expect(await page.locator('#merchant-banner').count()).toBe(0);
  });
});
