/**
 * `npm run bench:storefront`: the time from a shopper's cart change to the gift line, in real
 * Chromium on the stand-in storefront, with the service in this process on a fresh embedded
 * database and the demo shop of `npm run storefront:dev` ("spend $50, get a mug", evaluation
 * delay 0).
 *
 * One round: an empty cart, then the page's own "Add to cart" of two $30 tees (crossing $50).
 * The time is measured at the cart, from the page's `/cart/add.js` answer to the answer of the
 * script's `/cart/add.js` carrying `_svc_campaign_id`: what the script spends noticing the
 * change, reading the cart, evaluating and adding. Prints every round and the median, p90 and
 * mean of BENCH_ROUNDS (default 20), after BENCH_WARMUP (default 2) rounds not counted.
 * First it prints the script's assets, raw and gzip, and what a page fetches before any
 * interaction with the bar hidden in a closed drawer and with the bar visible at first paint,
 * against the first load's goal (as `npm run size:storefront` does). BENCH_THEME=embed runs it through the theme app extension's
 * app embed instead of part two's `<script>` include.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { FIRST_LOAD_GOAL_BYTES, buildStorefrontScript, firstLoadCases } from '@gcrs/storefront/build-script';
import { DEMO_FIXTURE } from '../dev/storefront/fixture.ts';
import { AdminClient, seedDemoShop } from '../dev/storefront/seed.ts';
import { startStorefrontStandin } from '../dev/storefront/server.ts';
import type { CartRequest, StorefrontStandin } from '../dev/storefront/server.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';
import { launchChromium } from '../test/support/chromium.ts';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const APP_SECRET = 'bench-platform-app-secret';

const envSchema = z.object({
  BENCH_ROUNDS: z.coerce.number().int().min(1).default(20),
  BENCH_WARMUP: z.coerce.number().int().min(0).default(2),
  BENCH_THEME: z.enum(['script-tag', 'embed']).default('script-tag'),
});

const print = (text = '') => process.stdout.write(`${text}\n`);

const isGiftAdd = (request: CartRequest) =>
  request.path === '/cart/add.js' &&
  request.status === 200 &&
  JSON.stringify(request.body).includes('_svc_campaign_id');

async function oneRound(page: Page, standin: StorefrontStandin): Promise<number> {
  await page.evaluate(async () => {
    await fetch('/cart/clear.js', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  });
  // Let the script settle on the empty cart before the measured change.
  await page.waitForTimeout(300);
  standin.resetRequests();
  const card = page.locator('.product[data-handle="organic-cotton-tee"]');
  await card.locator('input[name=quantity]').fill('2');
  await card.locator('.add-to-cart').click();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const requests = standin.cartRequests();
    const change = requests.find((request) => request.path === '/cart/add.js' && !isGiftAdd(request));
    const gift = requests.find(isGiftAdd);
    if (change && gift) return gift.at - change.at;
    if (Date.now() > deadline) throw new Error(`no gift line within 15 s; cart requests: ${JSON.stringify(requests.map((r) => `${r.method} ${r.path} ${r.status}`))}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function main(): Promise<void> {
  const env = envSchema.parse(process.env);
  const script = await buildStorefrontScript();
  const assets = [['gifts.js (first load)', script.code], ...Object.entries(script.chunks).map(([name, chunk]) => [`gifts-${name}.js (on demand)`, chunk.code] as const)] as const;
  for (const [name, code] of assets) {
    print(`${name}: ${code.byteLength} B raw, ${gzipSync(code, { level: 9 }).byteLength} B gzip`);
  }
  print(`first-load goal: ${FIRST_LOAD_GOAL_BYTES} B gzip; theme: ${env.BENCH_THEME}`);
  for (const { name, assets: fetched, bytes } of firstLoadCases(script)) {
    print(`before any interaction, ${name}: ${bytes} B gzip (${fetched.join(' + ')}; ${bytes > FIRST_LOAD_GOAL_BYTES ? `${bytes - FIRST_LOAD_GOAL_BYTES} B over` : `${FIRST_LOAD_GOAL_BYTES - bytes} B under`} the goal)`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'gcrs-bench-storefront-'));
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, PLATFORM_APP_SECRET: APP_SECRET, PLATFORM_APP_KEY: 'bench-app-key', LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '1000' });
  const ctx = await createAppContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const serviceUrl = `http://127.0.0.1:${address.port}`;
  await seedDemoShop(new AdminClient(serviceUrl, ADMIN_TOKEN), DEMO_FIXTURE);
  const standin = await startStorefrontStandin({ serviceUrl, appSecret: APP_SECRET, fixture: DEMO_FIXTURE, theme: env.BENCH_THEME });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(standin.url);
    await page.waitForFunction(() => 'svcGifts' in globalThis, undefined, { timeout: 15_000 });
    const times: number[] = [];
    for (let round = 0; round < env.BENCH_WARMUP + env.BENCH_ROUNDS; round += 1) {
      const ms = await oneRound(page, standin);
      const counted = round >= env.BENCH_WARMUP;
      if (counted) times.push(ms);
      print(`round ${String(round + 1).padStart(2)}${counted ? '' : ' (warm-up)'}: ${ms} ms`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    const median = sorted.length % 2 === 1 ? at(0.5) : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
    print();
    print(`cart change → gift line, ${times.length} rounds: median ${median} ms, p90 ${at(0.9)} ms, mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1)} ms, min ${sorted[0]} ms, max ${sorted.at(-1)} ms`);
  } finally {
    await browser.close();
    await standin.close();
    await app.close();
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
