/**
 * A shopper's hands on the stand-in's page in Chromium: add from a product card, change a
 * line from the drawer, read the cart as the page would, and wait for the gifts script.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { gid } from '../../dev/storefront/fixture.ts';
import type { CartRequest } from '../../dev/storefront/server.ts';

export type CartItem = {
  key: string;
  id: number;
  variant_id: number;
  product_id: number;
  quantity: number;
  price: number;
  line_price: number;
  properties: Record<string, string>;
};
export type CartJson = { token: string; item_count: number; total_price: number; currency: string; items: CartItem[] };

export async function cartOf(page: Page): Promise<CartJson> {
  return page.evaluate(async () => (await fetch('/cart.js')).json() as Promise<CartJson>);
}

/**
 * The order the platform completes from the page's cart (CONTRACT "Platform orders"): its
 * lines as they are, attributes included, completed now, for `total` minor units.
 */
export async function orderFromCart(page: Page, total: number, customerId?: string): Promise<Record<string, unknown>> {
  const cart = await cartOf(page);
  return {
    id: `order-${cart.token}`,
    ...(customerId === undefined ? {} : { customerId }),
    completedAt: new Date().toISOString(),
    currency: cart.currency,
    total,
    lines: cart.items.map((item) => ({
      productId: gid('Product', item.product_id),
      variantId: gid('ProductVariant', item.variant_id),
      quantity: item.quantity,
      price: item.price,
      attributes: item.properties,
    })),
  };
}

/** Opens the storefront in a fresh tab and waits until the gifts script has loaded its rules and run once. */
export async function openStorefront(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => 'svcGifts' in globalThis, undefined, { timeout: 15_000 });
  await page.evaluate(async () => {
    const gifts = (globalThis as unknown as { svcGifts: { ready: Promise<void> } }).svcGifts;
    await gifts.ready;
  });
}

/** "Add to cart" on a product card, as a shopper clicks it. */
export async function addFromCard(page: Page, handle: string, quantity: number): Promise<void> {
  const card = page.locator(`.product[data-handle="${handle}"]`);
  await card.locator('input[name=quantity]').fill(String(quantity));
  const answered = page.waitForResponse((response) => response.url().endsWith('/cart/add.js'));
  await card.locator('.add-to-cart').click();
  await answered;
}

/** Clicks − or + on the drawer line of `variantId`. */
export async function stepLine(page: Page, variantId: number, direction: 'increase' | 'decrease'): Promise<void> {
  const answered = page.waitForResponse((response) => response.url().endsWith('/cart/change.js'));
  await page.locator(`.cart-line[data-variant-id="${variantId}"]:not([data-gift]) .${direction}`).click();
  await answered;
}

/** The gift lines of the cart (lines carrying `_svc_campaign_id`). */
export async function giftLines(page: Page): Promise<CartItem[]> {
  return (await cartOf(page)).items.filter((item) => item.properties._svc_campaign_id !== undefined);
}

/** Waits until the cart's gift lines are exactly `variantIds` (in any order). */
export async function expectGiftVariants(page: Page, variantIds: number[]): Promise<void> {
  await expect
    .poll(async () => (await giftLines(page)).map((line) => line.variant_id).sort(), { timeout: 10_000, interval: 50 })
    .toEqual([...variantIds].sort());
}

/** The script's own cart writes (gift adds and removes), told apart from the page's by their body. */
export function giftWrites(requests: CartRequest[]): CartRequest[] {
  return requests.filter((request) => request.method === 'POST' && JSON.stringify(request.body).includes('_svc_'));
}
