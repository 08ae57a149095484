/**
 * Issue 21 item 6, the whole way locally (docs/storefront-dev.md "The whole way locally"): a
 * real `npm run dev:local` driven in Chromium through every link — the install by the embedded
 * load that the stand-in's `/open-app` signs, the plan chosen in Settings → Plan and approved
 * on the stand-in's confirmation page (the shop is on Free until its webhook arrives), the
 * campaign the script then seeds, the app embed adding the gift on the stand-in storefront,
 * the checkout where the gift-discount function's module (QuickJS) discounts the gift line and
 * `orders/paid` reaches the service, and the analytics counting the order and the gift. Then
 * Ctrl-C exits 0 and removes the data directory.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devSessionToken } from '../../dev/local/settings.ts';
import { launchChromium, saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { addFromCard, cartOf, expectGiftVariants, openStorefront } from '../support/shopper.ts';

const root = join(import.meta.dirname, '..', '..');
const DOMAIN = 'demo-gifts.myshopify.com';
const MUG = 20011;

type FunctionOutput = { operations: Array<{ productDiscountsAdd: { candidates: Array<{ targets: Array<{ cartLine: { id: string; quantity: number } }>; value: { percentage?: { value: string } } }> } }> };

describe.skipIf(skipWithoutChromium())('npm run dev:local, the whole way in Chromium', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('installs, bills, seeds, adds the gift, discounts it at checkout and counts the order', async () => {
    const dev = spawn('npm', ['run', 'dev:local'], {
      cwd: root,
      env: { ...process.env, DEV_LOCAL_SERVICE_PORT: '0', DEV_LOCAL_PLATFORM_PORT: '0', DEV_LOCAL_STOREFRONT_PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    dev.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => dev.on('exit', (code) => resolve(code)));
    const printed = async (pattern: RegExp, what: string): Promise<RegExpExecArray> => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`dev:local never printed ${what}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      const service = (await printed(/Service:\s+(http:\/\/\S+)\s+\(admin token for this run: (\S+)\)/, 'the service'));
      const [serviceUrl = '', adminToken = ''] = service.slice(1);
      const platformUrl = (await printed(/Platform:\s+(http:\/\/\S+)/, 'the platform'))[1] ?? '';
      const storefrontUrl = (await printed(/Storefront:\s+(http:\/\/\S+)/, 'the storefront'))[1] ?? '';
      const dataDir = (await printed(/embedded database in (\S+?)\)/, 'the data directory'))[1] ?? '';
      const admin = async (path: string) => {
        const response = await fetch(`${serviceUrl}/admin/v1${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
        expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
        return (await response.json()) as Record<string, unknown>;
      };
      const planOf = async (shopId: string) => ((await admin(`/shops/${shopId}`)) as { shop: { plan: string } }).shop.plan;

      browser = await launchChromium();
      const adminPage = await browser.context.newPage();
      // App Bridge as the platform's admin gives it to the app: fresh session tokens, and `open`
      // at the top level. The admin's own pages (where the confirmation returns) are not here.
      await adminPage.exposeFunction('__devIdToken', () => devSessionToken(DOMAIN));
      await adminPage.addInitScript((origin: string) => {
        if ((globalThis as unknown as { location: { origin: string } }).location.origin !== origin) return;
        const bridge = globalThis as unknown as { __devIdToken: () => Promise<string> };
        Object.assign(globalThis, { shopify: { idToken: () => bridge.__devIdToken() } });
      }, serviceUrl);
      await adminPage.route('https://cdn.shopify.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: '/* App Bridge: see the init script */' }));
      await adminPage.route('https://admin.shopify.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Admin</title><h1>Platform admin</h1>' }));

      // (1) The platform's admin opens the app: the embedded load installs the shop.
      expect(output).not.toMatch(/✓ \(1\)/);
      await adminPage.goto(`${platformUrl}/open-app`);
      expect(adminPage.url().startsWith(`${serviceUrl}/app/?`)).toBe(true);
      const shopId = (await printed(/✓ \(1\) installed: \S+ is shop (\S+) on free/, 'the install'))[1] ?? '';
      expect(await planOf(shopId)).toBe('free');

      // (2) Settings → Plan, approved on the stand-in's page; the plan moves with the webhook only.
      await adminPage.goto(`${serviceUrl}/app/#/settings/plan`);
      await adminPage.getByRole('button', { name: 'Choose Growth' }).click();
      await adminPage.waitForURL((url) => url.href.startsWith(`${platformUrl}/admin/charges/`));
      await adminPage.getByRole('button', { name: 'Approve' }).waitFor();
      expect(await planOf(shopId)).toBe('free');
      await adminPage.getByRole('button', { name: 'Approve' }).click();
      await adminPage.waitForURL((url) => url.hostname === 'admin.shopify.com');
      expect(await planOf(shopId)).toBe('growth');

      // (3) The script seeds the campaign through the merchant's API once the plan is approved.
      const campaignId = (await printed(/✓ \(3\) campaign (\S+) live/, 'the campaign'))[1] ?? '';

      // (4) The app embed on the storefront adds the gift.
      const shopper = await browser.context.newPage();
      await openStorefront(shopper, storefrontUrl);
      await addFromCard(shopper, 'organic-cotton-tee', 2);
      await expectGiftVariants(shopper, [MUG]);
      const cart = await cartOf(shopper);
      const giftIndex = cart.items.findIndex((item) => item.variant_id === MUG);
      expect(cart.items[giftIndex]?.properties._svc_campaign_id).toBe(campaignId);

      // (5) Checkout: the function's output discounts the gift line, and only it; orders/paid is taken.
      await shopper.getByRole('button', { name: 'Check out' }).click();
      await shopper.getByRole('heading', { name: 'Order placed' }).waitFor();
      await saveScreenshot(shopper, 'dev-local-checkout');
      const result = JSON.parse((await shopper.locator('#function-output').textContent()) ?? '') as FunctionOutput;
      const targets = result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => ({ ...t.cartLine, value: c.value }))));
      expect(targets).toEqual([{ id: `gid://shopify/CartLine/${giftIndex + 1}`, quantity: 1, value: { percentage: { value: '100' } } }]);
      expect(await shopper.locator('#order-discount').textContent()).toBe('$12.00');
      expect(await shopper.locator('#order-total').textContent()).toBe('$60.00');
      expect(await shopper.locator('#webhook-status').textContent()).toBe('200');

      // (6) Analytics count the order and its gift.
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      await expect
        .poll(async () => ((await admin(`/shops/${shopId}/analytics?from=${day(-1)}&to=${day(1)}`)) as { summary: unknown }).summary, { timeout: 15_000, interval: 250 })
        .toMatchObject({ totalOrders: 1, totalGifts: 1 });

      dev.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (dev.exitCode === null) dev.kill('SIGTERM');
    }
  }, 240_000);
});
