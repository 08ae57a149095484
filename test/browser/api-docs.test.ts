/**
 * Issue 24 item 7, `/docs` in real Chromium: Swagger UI renders the public OpenAPI document from
 * this service alone (every request the page makes is to its own origin: it works offline and
 * sends the document nowhere), lists the operations with their summaries, and renders the
 * descriptions' Markdown (code spans as code, not raw backticks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot, skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';

describe.skipIf(skipWithoutChromium())('GET /docs, in Chromium', () => {
  let stack: MerchantAdminStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    ({ browser } = stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('renders every operation from its own origin, Markdown as HTML', async () => {
    const { page, errors } = await openPage(browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${stack.base}/docs`);
    await page.getByRole('button', { name: /List campaigns/ }).first().waitFor();
    const operations = await page.locator('.opblock').count();
    const document = (await (await fetch(`${stack.base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    expect(operations).toBe(documented);
    // Descriptions are Markdown (the shop parameter's is "The shop (`shp_…`)"): opened, an
    // operation shows its code spans as <code>, never as backticks.
    await page.getByRole('button', { name: /List campaigns/ }).first().click();
    const body = page.locator('.opblock-body').first();
    await body.locator('.parameters').waitFor();
    const markdown = body.locator('.opblock-description-wrapper');
    expect(await markdown.locator('code').count()).toBeGreaterThan(0);
    expect((await markdown.allInnerTexts()).join('\n')).not.toContain('`');
    // No warning box: the document is one the viewer reads whole.
    expect(await page.locator('.version-pragma, .errors-wrapper').count()).toBe(0);
    expect(requested.filter((url) => !url.startsWith(stack.base) && !url.startsWith('data:'))).toEqual([]);
    for (const width of [1440, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await saveScreenshot(page, `api-docs-${width}`);
    }
    expect(errors).toEqual([]);
  });
});
