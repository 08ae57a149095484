/**
 * Issue 23, defect 3, in Chromium on the stand-in storefront: the free gift is protected. A
 * shopper who raises the mug to 2 sees it put back to 1 by the script; a gift line added a second
 * time (other properties, so a second line) is merged away; and once the merchant unticks "lock
 * the gift's quantity" in the campaign editor, the shopper's quantity stays.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import type { CartRequest } from '../../dev/storefront/server.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen } from '../support/merchant-admin.ts';
import { addFromCard, expectGiftVariants, giftLines, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;

/** The `/cart/change.js` calls: the page's and the script's, in order, as [line key, quantity]. */
const changes = (requests: CartRequest[]) =>
  requests
    .filter((request) => request.method === 'POST' && request.path === '/cart/change.js')
    .map((request) => {
      const body = request.body as { id?: string; quantity?: number };
      return [body.id, body.quantity];
    });

/** Clicks + on the drawer's gift line, as a shopper would. */
async function raiseGift(page: Page): Promise<void> {
  const answered = page.waitForResponse((response) => response.url().endsWith('/cart/change.js'));
  await page.locator(`.cart-line[data-gift][data-variant-id="${MUG}"] .increase`).click();
  await answered;
}

describe.skipIf(skipWithoutChromium())('the gift line is protected, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  async function mugShop() {
    const { shopId, standin } = await stack.openShop('scale');
    const { campaignId, ruleIds } = await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [MUG]));
    return { shopId, standin, campaignId, ruleId: ruleIds[0] ?? '' };
  }

  it('puts the mug back to 1 when the shopper raises it, and merges a gift line added twice', async () => {
    const { standin, campaignId, ruleId } = await mugShop();
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);
    const [gift] = await giftLines(page);
    expect(gift?.properties).toMatchObject({ _svc_rule_id: ruleId, _svc_lock_quantity: 'true' });
    await page.locator(`.cart-line[data-gift][data-variant-id="${MUG}"]`).waitFor();

    standin.resetRequests();
    await raiseGift(page);
    await expect.poll(() => changes(standin.cartRequests())).toEqual([
      [gift?.key, 2],
      [gift?.key, 1],
    ]);
    expect((await giftLines(page)).map((line) => [line.key, line.quantity])).toEqual([[gift?.key, 1]]);
    await expect.poll(() => page.locator('.cart-line[data-gift] .qty').allTextContents()).toEqual(['1']);
    await saveScreenshot(page, 'gift-lock-put-back');

    // A second line carrying the same claim (a theme's own add, without _svc_auto): one goes.
    standin.resetRequests();
    await page.evaluate(
      async ({ variant, properties }) => {
        await fetch('/cart/add.js', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ items: [{ id: variant, quantity: 1, properties }] }) });
      },
      { variant: MUG, properties: { _svc_campaign_id: campaignId, _svc_rule_id: ruleId } },
    );
    await expect.poll(() => changes(standin.cartRequests()).map(([, quantity]) => quantity)).toEqual([0]);
    const left = await giftLines(page);
    expect(left.map((line) => [line.variant_id, line.quantity, line.properties._svc_rule_id])).toEqual([[MUG, 1, ruleId]]);
    await expect.poll(() => page.locator('.cart-line[data-gift]').count()).toBe(1);
    // Nothing more: the cart is what the rule calls for.
    await page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
    expect(changes(standin.cartRequests())).toHaveLength(1);
  });

  it('leaves the shopper\'s quantity once the merchant unticks the lock in the campaign editor', async () => {
    const { shopId, standin, campaignId } = await mugShop();
    const admin = await page.context().newPage();
    const link = (await stack.t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/login-links` })).json() as { url: string };
    await admin.goto(stack.serviceUrl + new URL(link.url).pathname + new URL(link.url).search);
    await admin.waitForURL((url) => url.pathname === '/app/');
    await admin.goto(`${stack.serviceUrl}/app/#/campaigns/${campaignId}`);
    const lock = admin.getByLabel("Rule 1: lock the gift's quantity", { exact: true });
    await lock.waitFor();
    expect(await lock.isChecked()).toBe(true);
    await lock.uncheck();
    await checkScreen(admin, 'editor-gift-lock-unticked');
    await admin.getByRole('button', { name: 'Save campaign' }).last().click();
    await admin.getByRole('status').getByText('Spend $50 is saved').waitFor();
    const { campaign } = (await stack.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/campaigns/${campaignId}` })).json() as {
      campaign: { rules: Array<{ options: Record<string, unknown> }> };
    };
    expect(campaign.rules[0]?.options.lockQuantity).toBe(false);
    await admin.close();

    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);
    expect((await giftLines(page))[0]?.properties).not.toHaveProperty('_svc_lock_quantity');
    await page.locator(`.cart-line[data-gift][data-variant-id="${MUG}"]`).waitFor();
    standin.resetRequests();
    await raiseGift(page);
    await page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
    expect(changes(standin.cartRequests()).map(([, quantity]) => quantity)).toEqual([2]);
    expect((await giftLines(page)).map((line) => line.quantity)).toEqual([2]);
  });
});
