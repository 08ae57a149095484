/**
 * Issue 13 part 2, budgets in the campaign editor in real Chromium: a campaign whose rule has a
 * budget partly used by orders shows "Used 2 of 3 in total"; the merchant sets a weekly campaign
 * budget and raises the rule's, saves, and the API returns both; a bad budget shows the server's
 * 400 at its field. axe and screenshots (checkScreen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { order, postOrder } from '../orders/fixtures.ts';

type Campaign = { id: string; budget?: unknown; rules: Array<{ id: string; options: Record<string, unknown> }> };

describe.skipIf(skipWithoutChromium())('budgets in the campaign editor, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;
  let campaignId: string;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    shop = await stack.t.createShop('growth');
    const base = rule('Mug for everyone', { type: 'cart.item_count_gte', value: 1 });
    const imported = await stack.t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Mug week', [{ ...base, options: { ...base.options, budget: { maxGifts: 3 } } }])] },
    });
    campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] as string;
    const read = (await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` })).json() as { campaign: Campaign };
    const ruleId = read.campaign.rules[0]?.id as string;
    const res = await postOrder(stack.t, shop.id, order({ lines: [{ quantity: 2, gift: { campaignId, ruleId } }] }));
    expect(res.statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('shows what a budget used, sets a campaign budget, raises a rule budget and shows a bad one at its field', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 400/);
    const field = (label: string) => page.getByLabel(label, { exact: true });

    await stack.signIn(page, shop.id);
    await page.getByRole('link', { name: 'New campaign' }).first().waitFor();
    await page.goto(`${stack.base}/app/#/campaigns/${campaignId}`);
    await page.getByRole('heading', { name: 'Edit Mug week', level: 1 }).waitFor();
    await page.getByText('Used 2 of 3 in total').waitFor();
    expect(await field('Rule 1: limit the gifts given').isChecked()).toBe(true);
    expect(await field('Campaign: limit the gifts given').isChecked()).toBe(false);

    await field('Campaign: limit the gifts given').check();
    await field('Campaign: at most gifts').fill('0');
    await field('Campaign: counted').selectOption('week');
    await page.getByRole('button', { name: 'Save campaign' }).last().click();
    await page.getByText(/Not saved:.*budget › maxGifts/).waitFor();
    await checkScreen(page, 'budget-error');

    await field('Campaign: at most gifts').fill('50');
    await field('Rule 1: at most gifts').fill('5');
    await page.getByRole('button', { name: 'Save campaign' }).last().click();
    await page.getByText('Mug week is saved').waitFor();
    await page.getByText('Used 2 of 5 in total').waitFor();
    await page.getByText('Used 0 of 50 this week').waitFor();
    await checkScreen(page, 'budgets');

    const read = (await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` })).json() as { campaign: Campaign };
    expect(read.campaign.budget).toEqual({ maxGifts: 50, window: 'week' });
    expect(read.campaign.rules[0]?.options.budget).toEqual({ maxGifts: 5, window: 'total' });
    expect(errors).toEqual([]);
  });
});
