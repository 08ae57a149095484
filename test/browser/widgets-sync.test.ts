/**
 * Issue 23, defect 4: the widgets follow the cart and the live rules, in real Chromium on the
 * stand-in storefront. The toast goes when its gift line leaves the cart; the progress bar's
 * steps are the live rules' `cart.subtotal_gte` thresholds, with the rule's currency override
 * for a cart in another currency than the shop's, and hidden only when no rule has one.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { DEMO_FIXTURE } from '../../dev/storefront/fixture.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, openStorefront, stepLine } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const TEE = 10011; // 30.00 in the fixture's currency
const MUG = 20011;

type Json = Record<string, unknown>;

/** The demo widgets with the toast kept for a minute, the most the schema allows (only its gift leaving can take it away) and a bar naming the gift. */
function widgets(): Json {
  const base = demoWidgets(99_999) as Json & { toast: Json; progressBar: Json };
  return {
    ...base,
    toast: { ...base.toast, durationMs: 60_000 },
    progressBar: { ...base.progressBar, message: 'Spend {{remaining}} more for {{gift}}' },
    giftChoice: { enabled: false },
    reminder: { enabled: false },
  };
}

describe.skipIf(skipWithoutChromium())('widgets in sync with the cart and the live rules, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('takes the toast away when its gift line leaves the cart', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, widgets());
    await openStorefront(page, standin.url);

    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);
    await expect.poll(() => page.locator('#svc-gifts-toast .toast').textContent()).toContain('Enamel Mug');

    // Below the threshold: the script removes the gift, and the toast that announced it goes.
    await stepLine(page, TEE, 'decrease');
    await expectGiftVariants(page, []);
    await expect.poll(() => page.locator('#svc-gifts-toast').count()).toBe(0);
  });

  it('draws the bar from the rule, not from the stored thresholds, in the base currency', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    // SPEC's thresholds field says 999.99: the bar follows the live rule's 50.00 instead.
    await stack.admin.putWidgets(shopId, widgets());
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 1);
    const bar = page.locator('#svc-gifts-progress .bar');
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('2000');
    expect(await bar.textContent()).toContain('Spend $20.00 more for Enamel Mug');
  });

  it("uses the rule's currency override for a cart in another currency, and hides the bar without one", async () => {
    // The cart is in EUR (the fixture's), the shop's base currency USD.
    const euro = { ...DEMO_FIXTURE, currency: 'EUR' };
    const { shopId, standin } = await stack.openShop('scale', { fixture: euro });
    await stack.admin.call('PATCH', `/shops/${shopId}`, { currency: 'USD' });
    const campaign = subtotalGiftCampaign('Spend $50 or 45 EUR', 5000, [MUG]) as { rules: Array<{ conditionTree: Json }> };
    const [rule] = campaign.rules;
    if (rule) rule.conditionTree = { type: 'cart.subtotal_gte', value: 5000, currencyOverrides: { EUR: 4500 } };
    await stack.admin.launchCampaign(shopId, campaign);
    await stack.admin.putWidgets(shopId, widgets());
    await openStorefront(page, standin.url);

    await addFromCard(page, 'organic-cotton-tee', 1);
    const bar = page.locator('#svc-gifts-progress .bar');
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('1500');
    expect(await bar.textContent()).toContain('€15.00');
    await saveScreenshot(page, 'progress-bar-second-currency');
    await stepLine(page, TEE, 'increase');
    await expectGiftVariants(page, [MUG]);
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('0');

    // A shop whose rule has no EUR threshold: the rule cannot match in EUR, so no bar.
    const other = await stack.openShop('scale', { fixture: euro });
    await stack.admin.call('PATCH', `/shops/${other.shopId}`, { currency: 'USD' });
    await stack.admin.launchCampaign(other.shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(other.shopId, widgets());
    await openStorefront(page, other.standin.url);
    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => page.evaluate('window.svcGifts.lastResult?.results.length')).toBe(1);
    // The bar's chunk loaded (the bar is on) and drew nothing: no threshold in EUR.
    await expect.poll(() => page.evaluate('window.svcGiftsProgress !== undefined')).toBe(true);
    await page.evaluate('window.svcGifts.refresh()');
    expect(await page.locator('#svc-gifts-progress').count()).toBe(0);
  });
});
