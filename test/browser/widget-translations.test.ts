/**
 * Issue 23, item 10: the widgets' texts per locale, in real Chromium on the stand-in theme with
 * the app embed, which passes the page's locale (`request.locale.iso_code`, from the URL's
 * locale prefix as the platform serves it) as `data-locale`. French pages read the French texts,
 * a French-Canadian one the French too (its language), and a page in a language without
 * translations the shop's default texts. The names only screen readers hear (the toast's close
 * button, the reminder's region, a ladder's steps list) and the bar's words for a gift the
 * catalog does not name and for a choice of gifts are translated too.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, giftLines, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;
const STICKERS = 20021;
const TOTE = 10021;
/** A gift variant the catalog does not hold, so the payload's `giftTitles` cannot name it. */
const UNKNOWN = 99_999;

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

describe.skipIf(skipWithoutChromium())('the widgets’ other words in the page’s language, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('translates the screen reader names, the unnamed gift and the choice words, the defaults elsewhere', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    // Three steps: $50 gives the mug, $60 a choice of two, $100 a choice of the tote or a gift the catalog does not know.
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $60', 6000, [STICKERS, TOTE], 'customer_choice'));
    await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $100', 10000, [TOTE, UNKNOWN], 'customer_choice'), { force: true });
    const base = widgets() as Record<string, Json>;
    await stack.admin.putWidgets(shopId, {
      ...base,
      toast: { ...base.toast, translations: { fr: { message: '{{giftTitle}} est dans votre panier', dismissLabel: 'Fermer' } } },
      progressBar: {
        ...base.progressBar,
        translations: { fr: { message: 'Encore {{remaining}} pour {{gift}}', unknownGiftTitle: 'un cadeau offert', choiceText: 'au choix : {{gifts}}', stepsLabel: 'Paliers de cadeaux' } },
      },
      // The choice off, so the pending choice shows the reminder.
      reminder: { enabled: true, translations: { fr: { regionLabel: 'Rappel de cadeau' } } },
    });
    const bar = page.locator('#svc-gifts-progress .bar');
    const steps = bar.locator('ol li');
    const reminder = page.locator('#svc-gifts-reminder .reminder');

    await openStorefront(page, `${standin.url}/fr`);
    await addFromCard(page, 'organic-cotton-tee', 2); // $60: the mug, the $60 choice pending, $100 ahead
    await expectGiftVariants(page, [MUG]);
    await expect.poll(() => page.locator('#svc-gifts-toast .toast button').getAttribute('aria-label')).toBe('Fermer');
    await expect.poll(() => bar.locator('p').textContent()).toMatch(/^Encore .*40.* pour au choix : Canvas Tote, un cadeau offert$/);
    expect(await bar.locator('ol').getAttribute('aria-label')).toBe('Paliers de cadeaux');
    expect((await steps.allTextContents()).slice(1)).toEqual([expect.stringMatching(/^✓ .*60.*: au choix : Sticker Pack, Canvas Tote$/), expect.stringMatching(/^.*100.*: au choix : Canvas Tote, un cadeau offert$/)]);
    await expect.poll(() => reminder.getAttribute('aria-label')).toBe('Rappel de cadeau');
    await saveScreenshot(page, 'widget-words-in-french');

    // The same cart in the shop's default language: today's English words.
    await openStorefront(page, standin.url);
    await expect.poll(() => bar.locator('p').textContent()).toBe('Spend $40.00 more for one of Canvas Tote, a free gift');
    expect(await bar.locator('ol').getAttribute('aria-label')).toBe('Gift steps');
    await expect.poll(() => reminder.getAttribute('aria-label')).toBe('Free gift reminder');
  });
});

describe.skipIf(skipWithoutChromium())('the gift line’s title and the picker’s prices in the page’s language, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('writes _svc_title and the free label in French on /fr, the default words on /', async () => {
    const { shopId, standin } = await stack.openShop('scale', { theme: 'embed' });
    const campaign = subtotalGiftCampaign('Pick a gift over $50', 5000, [MUG, STICKERS], 'customer_choice') as { rules: Json[] };
    const [first] = campaign.rules;
    if (first === undefined) throw new Error('the campaign has no rule');
    first.options = { ...(first.options as Json), discountTitleTranslations: { fr: 'Cadeau offert' } };
    await stack.admin.launchCampaign(shopId, campaign);
    const base = widgets() as Record<string, Json>;
    await stack.admin.putWidgets(shopId, {
      ...base,
      toast: { ...base.toast, enabled: false },
      giftChoice: { enabled: true, showPrices: true, translations: { fr: { confirmLabel: 'Ajouter', freeLabel: 'Offert' } } },
    });
    const dialog = page.locator('#svc-gifts-choice [role=dialog]');
    const titles = async () => (await giftLines(page)).map((line) => line.properties._svc_title);

    await openStorefront(page, `${standin.url}/fr`);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const french = await dialog.locator('label').allTextContents();
    expect(french).toEqual([expect.stringMatching(/^Enamel Mug 12,00\s\$(US)? Offert$/), expect.stringMatching(/^Sticker Pack 5,00\s\$(US)? Offert$/)]);
    await saveScreenshot(page, 'gift-choice-prices-in-french');
    await dialog.getByRole('button', { name: 'Ajouter' }).click();
    await expectGiftVariants(page, [MUG]);
    expect(await titles()).toEqual(['Cadeau offert']);

    // Another cart on the default page: the rule's own title and the default words.
    await page.context().clearCookies();
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await dialog.locator('label').allTextContents()).toEqual(['Enamel Mug $12.00 Free', 'Sticker Pack $5.00 Free']);
    await dialog.getByRole('button', { name: 'Add gift' }).click();
    await expectGiftVariants(page, [MUG]);
    expect(await titles()).toEqual(['Free gift']);
  });
});
