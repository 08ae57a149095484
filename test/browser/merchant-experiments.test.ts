/**
 * Issue 23 defect 1 in Chromium: the Experiments screen ticks no rule by default, says in words
 * before the start that rules with different conditions take the gift away from some shoppers
 * (and that a disabled rule is a holdout), and will not start such an experiment without a
 * deliberate tick; the per-variant results read from events and orders posted through the API;
 * Conclude preselects the variant the numbers favour and says whether its lead is significant.
 */
import { assignVariant } from '@gcrs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

type Experiment = { id: string; status: string; winnerVariantId: string | null; variants: Array<{ id: string; name: string; ruleId: string; weight: number }> };

const everyone = { type: 'cart.subtotal_gte', value: 5000 };
const vip = { type: 'AND', children: [everyone, { type: 'customer.tag_in', value: ['VIP'] }] };

describe.skipIf(skipWithoutChromium())('merchant admin experiments (issue 23), in Chromium', () => {
  let stack: MerchantAdminStack;
  let t: TestApp;
  let browser: Browser;
  let shop: TestShop;
  let campaignId: string;
  let ruleIds: string[];

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    ({ t, browser } = stack);
    shop = await t.createShop('scale');
    const rules = [rule('Mug for everyone', everyone), rule('Tote for VIPs', vip), rule('Tote for everyone', everyone), { ...rule('No gift', everyone), enabled: false }];
    const imported = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign('Spend $50', { enabled: true, isDraft: false, rules })] } });
    campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
    const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}` });
    ruleIds = (read.json() as { campaign: { rules: Array<{ id: string }> } }).campaign.rules.map((r) => r.id);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  const experiments = async () =>
    ((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}/experiments` })).json() as { experiments: Experiment[] }).experiments;

  /** Ten visitors per variant with a gift add each, 6 orders of $50 in A and $50 + $90 in B. */
  async function traffic(experiment: Experiment) {
    const [a, b] = experiment.variants as [Experiment['variants'][number], Experiment['variants'][number]];
    const seen = new Map([[a.id, 0], [b.id, 0]]);
    for (let i = 0; [...seen.values()].some((n) => n < 10); i += 1) {
      const visitorId = `browser-visitor-${i}`;
      const variant = assignVariant(experiment, visitorId);
      if (!variant || (seen.get(variant.id) ?? 10) >= 10) continue;
      seen.set(variant.id, (seen.get(variant.id) ?? 0) + 1);
      const event = { type: 'gift_added', campaignId, ruleId: variant.ruleId, variantId: 'gid://shopify/ProductVariant/1' };
      await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/events`, payload: { visitorId, events: [event] } });
    }
    const now = new Date().toISOString();
    const withGift = (ruleId: string, total: number) => order({ completedAt: now, total, lines: [{ price: total }, { gift: { campaignId, ruleId } }] });
    for (const body of [...Array.from({ length: 6 }, () => withGift(a.ruleId, 5000)), withGift(b.ruleId, 5000), withGift(b.ruleId, 9000)]) {
      expect((await postOrder(t, shop.id, body)).statusCode).toBe(200);
    }
  }

  it('ticks nothing, warns in words before a start that withdraws gifts, shows per-variant results, and concludes with the leader preselected', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/experiments`);
    await page.getByRole('heading', { name: 'No experiments for this campaign' }).waitFor();

    // Nothing preselected; the disabled rule is offered as a holdout, in words.
    const boxes = page.getByRole('checkbox', { name: /^Include rule/ });
    expect(await boxes.count()).toBe(4);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    await page.getByRole('checkbox', { name: 'Include rule "No gift" as a holdout (disabled: no gift)' }).waitFor();

    // Everyone against VIPs: the warning says who loses the gift; Start refuses without the deliberate tick.
    await page.getByText('Include rule "Mug for everyone"').click();
    await page.getByText('Include rule "Tote for VIPs"').click();
    await page.getByText('This experiment takes the gift away from some shoppers').waitFor();
    await page.getByText('The rules “Mug for everyone” and “Tote for VIPs” have different conditions').waitFor();
    await checkScreen(page, 'experiment-audience-warning');
    await page.getByRole('button', { name: 'Start experiment' }).click();
    await page.getByText('Read the warning above and tick "Start anyway"').waitFor();
    expect(await experiments()).toEqual([]);

    // A holdout is named as one.
    await page.getByText('Include rule "No gift" as a holdout').click();
    await page.getByText('Variant “Holdout” is a holdout: its rule “No gift” is disabled').waitFor();
    await page.getByText('Include rule "No gift" as a holdout').click();

    // The same conditions with another gift: no warning, and it starts.
    await page.getByText('Include rule "Tote for VIPs"').click();
    await page.getByText('Include rule "Tote for everyone"').click();
    expect(await page.getByText('This experiment takes the gift away from some shoppers').count()).toBe(0);
    await page.getByRole('button', { name: 'Start experiment' }).click();
    await page.getByText('Running', { exact: true }).waitFor();
    const [started] = await experiments();
    expect(started?.variants.map((v) => [v.name, v.ruleId])).toEqual([
      ['Variant A', ruleIds[0]],
      ['Variant C', ruleIds[2]],
    ]);

    // Traffic, then the results as the merchant reads them.
    await traffic(started as Experiment);
    await page.reload();
    const leaderRow = page.getByRole('row', { name: /Variant A \(leader\)/ });
    await leaderRow.waitFor();
    expect((await leaderRow.innerText()).replace(/\s+/g, ' ').trim()).toBe('Variant A (leader) 10 10 6 60.0% $30.00 $50.00 —');
    expect((await page.getByRole('row', { name: /^Variant C/ }).innerText()).replace(/\s+/g, ' ').trim()).toBe('Variant C 10 10 2 20.0% $14.00 $70.00 0.068');
    await page.getByText('The numbers favour Variant A on conversion rate (60.0% against 20.0%), but not yet significantly (p = 0.068; it needs p below 0.05).').waitFor();
    await page.getByText('each variant needs 6,510 visitors: about 6,500 more').waitFor();
    await checkScreen(page, 'experiment-results');

    // Conclude: the leader preselected, the verdict said; the merchant keeps it.
    await page.getByRole('button', { name: /^Conclude experiment/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/not yet significantly/).waitFor();
    expect(await dialog.getByLabel(/Variant A .*favoured by the numbers/).isChecked()).toBe(true);
    expect(await dialog.getByLabel(/Variant C/).isChecked()).toBe(false);
    await checkScreen(page, 'experiment-conclude-leader');
    await dialog.getByRole('button', { name: 'Conclude with this winner' }).click();
    await page.getByText('Experiment concluded: Variant A won').waitFor();
    const [concluded] = await experiments();
    expect(concluded?.winnerVariantId).toBe(started?.variants[0]?.id);

    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
