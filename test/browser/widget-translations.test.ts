/**
 * Issue 23, item 10: the widgets' texts per locale, in real Chromium on the stand-in theme with
 * the app embed, which passes the page's locale (`request.locale.iso_code`, from the URL's
 * locale prefix as the platform serves it) as `data-locale`. French pages read the French texts,
 * a French-Canadian one the French too (its language), and a page in a language without
 * translations the shop's default texts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;

type Json = Record<string, unknown>;

function widgets(): Json {
  const base = demoWidgets(5000) as Record<string, Json>;
  return {
    ...base,
    toast: { ...base.toast, message: '{{giftTitle}} was added', durationMs: 60_000, translations: { fr: { message: '{{giftTitle}} est dans votre panier' } } },
    progressBar: {
      ...base.progressBar,
      message: 'Spend {{remaining}} more for {{gift}}',
      translations: { fr: { message: 'Encore {{remaining}} pour {{gift}}' }, de: {} },
    },
    giftChoice: { enabled: false },
    reminder: { enabled: false },
  };
}

describe.skipIf(skipWithoutChromium())('widget texts in the page’s language, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('shows the translations of the page’s locale, its language’s, else the default texts', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.putWidgets(shopId, widgets());
    const bar = page.locator('#svc-gifts-progress .bar p');

    await openStorefront(page, `${standin.url}/fr`);
    expect(await page.locator('script[data-locale]').getAttribute('data-locale')).toBe('fr');
    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => bar.textContent()).toMatch(/^Encore .*20.* pour Enamel Mug$/);
    await addFromCard(page, 'organic-cotton-tee', 1);
    await expectGiftVariants(page, [MUG]);
    await expect.poll(() => page.locator('#svc-gifts-toast .toast span').textContent()).toBe('Enamel Mug est dans votre panier');
    await saveScreenshot(page, 'widgets-in-french');

    // Another cart below the step, read in three more locales.
    await page.context().clearCookies();
    await openStorefront(page, `${standin.url}/fr-ca`);
    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => bar.textContent()).toMatch(/^Encore .* pour Enamel Mug$/);
    // German: no German texts, so the default ones, with the amount in German.
    await openStorefront(page, `${standin.url}/de`);
    await expect.poll(() => bar.textContent()).toMatch(/^Spend 20,00\s\$ more for Enamel Mug$/);
    await openStorefront(page, standin.url);
    await expect.poll(() => bar.textContent()).toBe('Spend $20.00 more for Enamel Mug');
  });
});
