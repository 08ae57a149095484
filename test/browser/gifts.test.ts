/**
 * Issue 10, part 4: a shopper on the stand-in storefront in real Chromium, the gifts script
 * served by the service and talking to it through the stand-in's signed app proxy.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoWidgets, subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, cartOf, expectGiftVariants, giftLines, giftWrites, openStorefront, orderFromCart, stepLine } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const TEE = 10011; // $30.00
const MUG = 20011;
const TEA = 20031; // sold out in the fixture's catalog

describe.skipIf(skipWithoutChromium())('gifts on the storefront, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  /** A Scale shop with "spend $50, get `gift`" live and the demo widgets. */
  async function thresholdShop(gift: number, options: { force?: boolean } = {}) {
    const { shopId, standin } = await stack.openShop('scale');
    const { campaignId, ruleIds } = await stack.admin.launchCampaign(shopId, subtotalGiftCampaign('Spend $50', 5000, [gift]), options);
    await stack.admin.putWidgets(shopId, demoWidgets(5000));
    return { shopId, standin, campaignId, ruleId: ruleIds[0] ?? '' };
  }

  it('adds the gift line with its attributes when the subtotal crosses the threshold, and removes it below', async () => {
    const { shopId, standin, campaignId, ruleId } = await thresholdShop(MUG);
    await stack.admin.call('POST', `/shops/${shopId}/webhook-endpoints`, { url: 'http://127.0.0.1:65000/hooks', events: ['gift.added'] });
    await openStorefront(page, standin.url);

    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => page.locator('#svc-gifts-progress .bar').getAttribute('data-remaining')).toBe('2000');
    expect(await page.locator('#svc-gifts-progress .bar').textContent()).toContain('$20.00');
    await saveScreenshot(page, 'progress-bar');
    expect(await giftLines(page)).toEqual([]);

    await stepLine(page, TEE, 'increase');
    await expectGiftVariants(page, [MUG]);
    const [gift] = await giftLines(page);
    expect(gift).toMatchObject({
      quantity: 1,
      product_id: 2001,
      properties: { _svc_campaign_id: campaignId, _svc_rule_id: ruleId, _svc_auto: 'true', _svc_discount_method: 'automatic' },
    });
    await expect.poll(() => page.locator('#svc-gifts-toast .toast').textContent()).toContain('Enamel Mug');
    await expect.poll(() => page.locator('#svc-gifts-progress .bar').getAttribute('data-remaining')).toBe('0');
    await expect.poll(() => page.locator('.cart-line[data-gift]').count()).toBe(1);
    await saveScreenshot(page, 'gift-added-toast');

    await stepLine(page, TEE, 'decrease');
    await expectGiftVariants(page, []);
    expect((await cartOf(page)).items.map((item) => [item.variant_id, item.quantity])).toEqual([[TEE, 1]]);

    // The script reported gift_added through the proxy: the service queued its webhook.
    await expect
      .poll(async () => {
        const { deliveries } = (await stack.admin.call('GET', `/shops/${shopId}/webhook-deliveries`)) as { deliveries: { type: string }[] };
        return deliveries.map((delivery) => delivery.type);
      })
      .toContain('gift.added');
  });

  it('counts the gift of an order built from the browser’s cart in analytics', async () => {
    const { shopId, standin, campaignId } = await thresholdShop(MUG);
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);

    // The platform completes the order with the cart's lines, attributes included.
    await stack.admin.call('POST', `/shops/${shopId}/orders`, await orderFromCart(page, 6000));
    const today = new Date().toISOString().slice(0, 10);
    const analytics = (await stack.admin.call('GET', `/shops/${shopId}/analytics?from=${today}&to=${today}`)) as {
      campaignStats: { campaignId: string; giftsGiven: number; ordersWithGifts: number }[];
    };
    expect(analytics.campaignStats).toEqual([expect.objectContaining({ campaignId, giftsGiven: 1, ordersWithGifts: 1 })]);
  });

  it('knows the signed-in customer: a rule for tagged customers, and the customer’s own redemptions through the proxy', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    const vipRule = subtotalGiftCampaign('VIP gift', 5000, [MUG]);
    const [rule] = vipRule.rules as { conditionTree: unknown }[];
    if (rule) rule.conditionTree = { type: 'AND', children: [rule.conditionTree, { type: 'customer.tag_in', value: ['vip'] }] };
    const { ruleIds } = await stack.admin.launchCampaign(shopId, vipRule);

    // Anonymous: no gift, and no redemptions.
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
    expect(await giftLines(page)).toEqual([]);
    const redemptions = () => page.evaluate(async () => (await fetch('/apps/gifts/redemptions', { cache: 'no-store' })).json() as Promise<{ redemptions: { ruleId: string; count: number }[] }>);
    expect(await redemptions()).toEqual({ redemptions: [] });

    // Ada (tagged vip) signs in: the theme fills data-customer-*, the proxy signs her id.
    await page.goto(`${standin.url}/account/login?customer_id=501`);
    await openStorefront(page, standin.url);
    await page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
    await expectGiftVariants(page, [MUG]);

    await stack.admin.call('POST', `/shops/${shopId}/orders`, await orderFromCart(page, 6000, '501'));
    expect((await redemptions()).redemptions).toEqual([expect.objectContaining({ ruleId: ruleIds[0], count: 1 })]);
  });

  it('does not retry a sold-out gift in a loop: one refused add per cart state', async () => {
    // The service leaves gifts its catalog knows are sold out out of the payload; here the shop
    // sold the last mug after the catalog was synced, so only the cart knows (422 on add).
    const { standin } = await thresholdShop(MUG);
    standin.setInventory(MUG, 0);
    await openStorefront(page, standin.url);
    standin.resetRequests();
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expect.poll(() => giftWrites(standin.cartRequests()).length).toBe(1);
    // Time for a loop to show itself: nothing more is sent while the cart stays as it is.
    await page.waitForTimeout(1500);
    const writes = giftWrites(standin.cartRequests());
    expect(writes.map((request) => request.status)).toEqual([422]);
    expect(standin.cartRequests().length).toBeLessThan(10);
    expect(await giftLines(page)).toEqual([]);
  });

  it('does not even try a gift the catalog knows is sold out (the payload leaves it out)', async () => {
    const { standin } = await thresholdShop(TEA, { force: true });
    await openStorefront(page, standin.url);
    standin.resetRequests();
    await addFromCard(page, 'organic-cotton-tee', 2);
    await page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
    await page.waitForTimeout(500);
    expect(giftWrites(standin.cartRequests())).toEqual([]);
    expect(await giftLines(page)).toEqual([]);
  });

  it('retries a gift add the cart answers 429 with backoff, and gets it in', async () => {
    const { standin } = await thresholdShop(MUG);
    await openStorefront(page, standin.url);
    standin.resetRequests();
    standin.failNext('/cart/add.js', 429, 2, (body) => JSON.stringify(body).includes('_svc_'));
    await addFromCard(page, 'organic-cotton-tee', 2);
    await expectGiftVariants(page, [MUG]);
    const writes = giftWrites(standin.cartRequests());
    expect(writes.map((request) => request.status)).toEqual([429, 429, 200]);
    // Backoff: the retries are spaced, not fired back to back.
    const [first, , last] = writes;
    expect((last?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('refuses forged and replayed proxy requests with 401, seen from the browser', async () => {
    const { standin } = await thresholdShop(MUG);
    await page.goto(standin.url);
    // no-store: the rules answer is cacheable (max-age=60), and the browser would otherwise reuse it.
    const status = () => page.evaluate(async () => (await fetch('/apps/gifts/rules', { cache: 'no-store' })).status);
    expect(await status()).toBe(200);
    standin.setProxySigning('bad-signature');
    expect(await status()).toBe(401);
    standin.setProxySigning('stale-timestamp');
    expect(await status()).toBe(401);
    standin.setProxySigning('unsigned');
    expect(await status()).toBe(401);
    standin.setProxySigning('valid');
  });
});
