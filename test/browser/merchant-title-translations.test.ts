/**
 * Issue 23 (translations), the campaign editor in real Chromium: a merchant adds French and
 * Brazilian Portuguese titles to a rule's discount, one field per language; a locale that is not
 * one is refused at the field, a title the server refuses (over 255 characters) shows its 400 at
 * that language's field; saved, the API holds exactly the translations, and emptying a field
 * drops its language. The shop is connected to the stand-in platform, which publishes French,
 * Brazilian Portuguese and German besides English: the editor offers those three (not the primary
 * English, not the unpublished Italian), "Add Brazilian Portuguese (pt-BR)" adds its field, and a
 * read the platform refuses is said beside the field, which still takes typed codes. axe (no
 * violations) and screenshots at 1440 and 360 px on each state.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import { startTestPlatform } from '../support/platform-standin.ts';
import type { TestShop } from '../support/test-app.ts';

const SECRET = 'title-translations-browser-secret';

type Campaign = { rules: Array<{ options: Record<string, unknown> }> };

describe.skipIf(skipWithoutChromium())('the discount title per language in the campaign editor, in Chromium', () => {
  let stack: MerchantAdminStack;
  let platform: PlatformStandin;
  let shop: TestShop;
  let campaignId: string;

  beforeAll(async () => {
    platform = await startTestPlatform(SECRET);
    stack = await startMerchantAdmin({ PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: platform.url });
    shop = await stack.t.createShop('growth');
    const { domain } = ((await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` })).json() as { shop: { domain: string } }).shop;
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    platform.addShop({ domain, accessTokens: new Set([token]) });
    platform.locales.locales.set(domain, [
      { locale: 'en', primary: true, published: true },
      { locale: 'fr', primary: false, published: true },
      { locale: 'pt-BR', primary: false, published: true },
      { locale: 'de', primary: false, published: true },
      { locale: 'it', primary: false, published: false },
    ]);
    expect((await stack.t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/platform-connection`, payload: { accessToken: token } })).statusCode).toBe(200);
    [campaignId = ''] = await importCampaigns(stack.t, shop, [liveCampaign('Tote for all', [rule('Tote', { type: 'cart.item_count_gte', value: 1 })])]);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await platform?.close();
  });

  const offered = (page: Page) => page.getByRole('group', { name: 'Rule 1: your shop\'s languages' }).getByRole('button').allTextContents();

  const options = async () =>
    ((await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` })).json() as { campaign: Campaign }).campaign.rules[0]?.options;

  it('adds a field per language, shows refusals at their field, and saves exactly the translations', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 400/);
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await stack.signIn(page, shop.id);
    await page.goto(`${new URL(page.url()).origin}/app/#/campaigns/${campaignId}`);
    await page.getByRole('heading', { name: 'Edit Tote for all', level: 1 }).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Rule 1: discount title in other languages' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Rule 1: Add French (fr)' }).waitFor({ timeout: 15_000 });
    expect(await offered(page)).toEqual(['Add French (fr)', 'Add Brazilian Portuguese (pt-BR)', 'Add German (de)']);
    await checkScreen(page, 'editor-title-translations-offered');

    await field('Rule 1: add a language').fill('fr FR');
    await page.getByRole('button', { name: 'Add language' }).click();
    await page.getByText('A locale code such as fr, de or pt-BR').waitFor({ timeout: 15_000 });
    expect(await field('Rule 1: add a language').getAttribute('aria-invalid')).toBe('true');
    await field('Rule 1: add a language').fill('fr');
    await page.getByRole('button', { name: 'Add language' }).click();
    await field('Rule 1: discount title (fr)').fill('Cadeau offert');
    // Typed, French is no longer offered; Brazilian Portuguese is added from the shop's list, its field focused.
    expect(await offered(page)).toEqual(['Add Brazilian Portuguese (pt-BR)', 'Add German (de)']);
    await page.getByRole('button', { name: 'Rule 1: Add Brazilian Portuguese (pt-BR)' }).click();
    await expect.poll(() => field('Rule 1: discount title (pt-BR)').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
    expect(await offered(page)).toEqual(['Add German (de)']);
    await page.keyboard.type('x'.repeat(256));
    await checkScreen(page, 'editor-title-translations');

    await page.getByRole('button', { name: 'Save campaign' }).last().click();
    await expect.poll(() => field('Rule 1: discount title (pt-BR)').getAttribute('aria-invalid')).toBe('true');
    expect(await field('Rule 1: discount title (fr)').getAttribute('aria-invalid')).not.toBe('true');
    await checkScreen(page, 'editor-title-translations-error');
    expect(await options()).not.toHaveProperty('discountTitleTranslations');

    await field('Rule 1: discount title (pt-BR)').fill('Brinde grátis');
    await page.getByRole('button', { name: 'Save campaign' }).last().click();
    await page.getByRole('status').getByText('Tote for all is saved').waitFor();
    expect((await options())?.discountTitleTranslations).toEqual({ fr: 'Cadeau offert', 'pt-BR': 'Brinde grátis' });

    // Loaded again, the fields are there; emptying one drops its language.
    await page.reload();
    await field('Rule 1: discount title (fr)').waitFor();
    expect(await field('Rule 1: discount title (pt-BR)').inputValue()).toBe('Brinde grátis');
    await field('Rule 1: discount title (fr)').fill('');
    await page.getByRole('button', { name: 'Save campaign' }).last().click();
    await expect.poll(async () => (await options())?.discountTitleTranslations).toEqual({ 'pt-BR': 'Brinde grátis' });
    expect(await offered(page)).toEqual(['Add French (fr)', 'Add German (de)']);
    expect(errors).toEqual([]);
  }, 240_000);

  it('says when the platform does not give the shop\'s languages, and typed codes still work', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 409/);
    const field = (label: string) => page.getByLabel(label, { exact: true });
    platform.locales.faults.inject({ kind: 'errors', code: 'ACCESS_DENIED', message: 'Access denied for shopLocales field. Required access: `read_locales` access scope.' });
    await stack.signIn(page, shop.id);
    await page.goto(`${new URL(page.url()).origin}/app/#/campaigns/${campaignId}`);
    await page.getByText(/Your shop’s languages could not be read: The app may not read the shop's languages/).waitFor({ timeout: 15_000 });
    await page.getByText(/read_locales/).first().waitFor();
    expect(await page.getByRole('group', { name: 'Rule 1: your shop\'s languages' }).count()).toBe(0);
    await field('Rule 1: add a language').fill('de');
    await page.getByRole('button', { name: 'Add language' }).click();
    await field('Rule 1: discount title (de)').waitFor();
    await checkScreen(page, 'editor-title-translations-unread');
    expect(errors).toEqual([]);
  }, 120_000);
});
