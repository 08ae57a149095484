/**
 * Issue 23 (translations), the campaign editor in real Chromium: a merchant adds French and
 * Brazilian Portuguese titles to a rule's discount, one field per language; a locale that is not
 * one is refused at the field, a title the server refuses (over 255 characters) shows its 400 at
 * that language's field; saved, the API holds exactly the translations, and emptying a field
 * drops its language. axe (no violations) and screenshots at 1440 and 360 px on each state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

type Campaign = { rules: Array<{ options: Record<string, unknown> }> };

describe.skipIf(skipWithoutChromium())('the discount title per language in the campaign editor, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;
  let campaignId: string;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    shop = await stack.t.createShop('growth');
    [campaignId = ''] = await importCampaigns(stack.t, shop, [liveCampaign('Tote for all', [rule('Tote', { type: 'cart.item_count_gte', value: 1 })])]);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  const options = async () =>
    ((await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` })).json() as { campaign: Campaign }).campaign.rules[0]?.options;

  it('adds a field per language, shows refusals at their field, and saves exactly the translations', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 400/);
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await stack.signIn(page, shop.id);
    await page.goto(`${new URL(page.url()).origin}/app/#/campaigns/${campaignId}`);
    await page.getByRole('heading', { name: 'Edit Tote for all', level: 1 }).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Rule 1: discount title in other languages' }).waitFor({ timeout: 15_000 });

    await field('Rule 1: add a language').fill('fr FR');
    await page.getByRole('button', { name: 'Add language' }).click();
    await page.getByText('A locale code such as fr, de or pt-BR').waitFor({ timeout: 15_000 });
    expect(await field('Rule 1: add a language').getAttribute('aria-invalid')).toBe('true');
    await field('Rule 1: add a language').fill('fr');
    await page.getByRole('button', { name: 'Add language' }).click();
    await field('Rule 1: discount title (fr)').fill('Cadeau offert');
    await field('Rule 1: add a language').fill('pt-BR');
    await page.getByRole('button', { name: 'Add language' }).click();
    await field('Rule 1: discount title (pt-BR)').fill('x'.repeat(256));
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
    expect(errors).toEqual([]);
  }, 240_000);
});
