/**
 * Issue 23 item 9 on the storefront, in Chromium: a three-tier ladder ($50 → mug, $100 → mug +
 * tote, $150 → choose one of three) as the ladder editor stores it is one bar with three steps,
 * each with its amount and gifts, the passed ones ticked and the next one named; the cart holds
 * only the highest reached tier's gifts, and at $160 only the one chosen there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ladderToRules } from '../../app/src/pages/ladder/ladder-rules.ts';
import type { LadderTier } from '../../app/src/pages/ladder/ladder-rules.ts';
import { demoWidgets } from '../../dev/storefront/seed.ts';
import { DEMO_FIXTURE } from '../../dev/storefront/fixture.ts';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, openStorefront } from '../support/shopper.ts';
import { useStorefrontBrowser } from '../support/storefront.ts';
import type { StorefrontStack } from '../support/storefront.ts';

const MUG = 20011;
const STICKERS = 20021;
const TOTE = 10021;
const BEANIE = 10031;
const gifts = (...ids: number[]) => ids.map((id) => ({ variantId: `gid://shopify/ProductVariant/${id}`, quantity: 1 }));

const LADDER: LadderTier[] = [
  { name: 'Spend 50', threshold: { value: 5000 }, gifts: gifts(MUG), choice: false },
  { name: 'Spend 100', threshold: { value: 10000 }, gifts: gifts(MUG, TOTE), choice: false },
  { name: 'Spend 150', threshold: { value: 15000 }, gifts: gifts(STICKERS, BEANIE, MUG), choice: true },
];

// The tee at $40, so one more tee climbs a step: $40, $80, $120, $160; the beanie stocked (as a gift, 3 left would warn at enable).
const FIXTURE = {
  ...DEMO_FIXTURE,
  products: DEMO_FIXTURE.products.map((product) => ({
    ...product,
    variants: product.variants.map((variant) => (product.handle === 'organic-cotton-tee' ? { ...variant, price: 4000 } : product.handle === 'wool-beanie' ? { ...variant, inventoryQuantity: 100 } : variant)),
  })),
};

describe.skipIf(skipWithoutChromium())('a tier ladder on the storefront, in Chromium', () => {
  let stack: StorefrontStack;
  let page: Page;
  useStorefrontBrowser((session) => ({ stack, page } = session));

  it('draws one bar with every tier and gives only the highest reached tier, at $160 only the chosen gift', async () => {
    const { shopId, standin } = await stack.openShop('scale', { fixture: FIXTURE });
    await stack.admin.launchCampaign(shopId, { name: 'Spend more, get more', rules: ladderToRules(LADDER) });
    const widgets = demoWidgets(5000) as Record<string, Record<string, unknown>>;
    await stack.admin.putWidgets(shopId, { ...widgets, progressBar: { ...widgets.progressBar, message: 'Spend {{remaining}} more for {{gift}}' }, reminder: { enabled: false } });
    await openStorefront(page, standin.url);
    const bar = page.locator('#svc-gifts-progress .bar');
    const steps = bar.locator('ol[aria-label="Gift steps"] li');
    const stepTexts = () => steps.allTextContents();

    await addFromCard(page, 'organic-cotton-tee', 1);
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('1000');
    expect(await bar.locator('p').textContent()).toBe('Spend $10.00 more for Enamel Mug');
    expect(await stepTexts()).toEqual(['$50.00: Enamel Mug', '$100.00: Enamel Mug, Canvas Tote', '$150.00: one of Sticker Pack, Wool Beanie, Enamel Mug']);
    expect(await steps.nth(0).getAttribute('aria-current')).toBe('step');

    await addFromCard(page, 'organic-cotton-tee', 1); // $80: tier 1
    await expectGiftVariants(page, [MUG]);
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('2000');
    expect(await bar.locator('p').textContent()).toBe('Spend $20.00 more for Enamel Mug, Canvas Tote');
    expect(await stepTexts()).toEqual(['✓ $50.00: Enamel Mug', '$100.00: Enamel Mug, Canvas Tote', '$150.00: one of Sticker Pack, Wool Beanie, Enamel Mug']);
    expect(await steps.nth(1).getAttribute('aria-current')).toBe('step');

    await addFromCard(page, 'organic-cotton-tee', 1); // $120: tier 2 only (its mug, not tier 1's too)
    await expectGiftVariants(page, [MUG, TOTE]);
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('3000');
    expect((await stepTexts()).map((text) => text.startsWith('✓'))).toEqual([true, true, false]);
    expect(await bar.locator('p').textContent()).toBe('Spend $30.00 more for one of Sticker Pack, Wool Beanie, Enamel Mug');
    await page.setViewportSize({ width: 1440, height: 900 });
    await saveScreenshot(page, 'ladder-bar-1440');
    await page.setViewportSize({ width: 360, height: 740 });
    await saveScreenshot(page, 'ladder-bar-360');

    await addFromCard(page, 'organic-cotton-tee', 1); // $160: tier 3, a choice of three
    const dialog = page.locator('#svc-gifts-choice [role=dialog]');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await dialog.locator('input[type=radio]').count()).toBe(3);
    // Tier 2's gifts are gone as soon as tier 3 is reached: only the highest tier gives.
    await expectGiftVariants(page, []);
    await dialog.locator(`input[value="gid://shopify/ProductVariant/${STICKERS}"]`).check();
    await dialog.getByRole('button', { name: 'Add gift' }).click();
    await expectGiftVariants(page, [STICKERS]);
    await expect.poll(() => bar.getAttribute('data-remaining')).toBe('0');
    expect((await stepTexts()).map((text) => text.startsWith('✓'))).toEqual([true, true, true]);
    // Still only the chosen gift after the script's next pass.
    await page.evaluate('window.svcGifts.refresh()');
    await expectGiftVariants(page, [STICKERS]);
  });
});
