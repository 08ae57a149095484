/**
 * Issue 13 part 1, per-customer limits on the stand-in storefront in real Chromium: a rule with
 * `maxPerCustomer: 1`; Ada (501) has redeemed it once, Bo (502) never. The script fetches the
 * signed customer's redemptions through the app proxy once per page and hands them to the
 * planner: Bo gets the gift, Ada at her limit does not, an anonymous shopper does not either.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { subtotalGiftCampaign } from '../../dev/storefront/seed.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, giftLines, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;

type Limit = { maxPerCustomer: number; used: number | null; reason: string };

describe.skipIf(skipWithoutChromium())('per-customer limits on the storefront, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  const refresh = () => page.evaluate(async () => (globalThis as unknown as { svcGifts: { refresh(): Promise<void> } }).svcGifts.refresh());
  const limitOf = () =>
    page.evaluate(() => (globalThis as unknown as { svcGifts: { lastResult?: { results: Array<{ reasons: string[]; limit?: unknown }> } } }).svcGifts.lastResult?.results[0]) as Promise<
      { reasons: string[]; limit?: Limit } | undefined
    >;
  const redemptionCalls = (urls: string[]) => urls.filter((url) => url.includes('/apps/gifts/redemptions')).length;

  it('a customer at the limit does not get the gift, one below it does, an anonymous shopper does not', async () => {
    const { shopId, standin } = await stack.openShop('scale');
    const campaign = subtotalGiftCampaign('Once per customer', 5000, [MUG]);
    const [rule] = campaign.rules as Array<{ options: Record<string, unknown> }>;
    if (rule) rule.options.maxPerCustomer = 1;
    const { campaignId, ruleIds } = await stack.admin.launchCampaign(shopId, campaign);
    // Ada's earlier order carried the mug.
    await stack.admin.call('POST', `/shops/${shopId}/orders`, {
      id: 'order-ada-1',
      customerId: '501',
      completedAt: new Date().toISOString(),
      currency: 'USD',
      total: 6000,
      lines: [
        { productId: 'gid://shopify/Product/1001', variantId: 'gid://shopify/ProductVariant/10011', quantity: 2, price: 3000 },
        { productId: 'gid://shopify/Product/2001', variantId: `gid://shopify/ProductVariant/${MUG}`, quantity: 1, price: 0, attributes: { _svc_campaign_id: campaignId, _svc_rule_id: ruleIds[0] ?? '' } },
      ],
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));

    // Anonymous: nothing, and no redemptions call (there is no one to ask about).
    await openStorefront(page, standin.url);
    await addFromCard(page, 'organic-cotton-tee', 2);
    await refresh();
    expect(await giftLines(page)).toEqual([]);
    expect((await limitOf())?.reasons).toEqual(['max_per_customer_unknown_customer']);
    expect(redemptionCalls(requested)).toBe(0);

    // Bo has never redeemed it: the mug is added.
    await page.goto(`${standin.url}/account/login?customer_id=502`);
    await openStorefront(page, standin.url);
    await refresh();
    await expectGiftVariants(page, [MUG]);
    expect((await limitOf())?.limit).toEqual({ maxPerCustomer: 1, used: 0, reason: 'max_per_customer_below' });
    await saveScreenshot(page, 'per-customer-below-limit');

    // Ada has: her page removes the gift line the cart still holds, and adds none.
    requested.length = 0;
    await page.goto(`${standin.url}/account/login?customer_id=501`);
    await openStorefront(page, standin.url);
    await refresh();
    await expectGiftVariants(page, []);
    expect(await limitOf()).toEqual(expect.objectContaining({ reasons: ['max_per_customer_reached'], limit: { maxPerCustomer: 1, used: 1, reason: 'max_per_customer_reached' } }));
    // Once per page load (the sign-in's redirect was a page too), however many passes follow.
    const perPage = redemptionCalls(requested);
    expect(perPage).toBeGreaterThanOrEqual(1);
    await addFromCard(page, 'organic-cotton-tee', 1);
    await refresh();
    expect(await giftLines(page)).toEqual([]);
    expect(redemptionCalls(requested)).toBe(perPage);
    await saveScreenshot(page, 'per-customer-at-limit');
  });
});
