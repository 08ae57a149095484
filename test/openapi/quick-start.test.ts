/**
 * The typed quick-start calls (`openapi/quick-start.ts`, type-checked by `npm run
 * openapi:check` against the generated types) run against the app over HTTP: the documented
 * flow works, not only compiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

// Loaded by a path tsc does not follow: the file's types come from `openapi/generated/`, which
// only `npm run openapi:check` writes (and type-checks); at run time its type imports are erased.
type QuickStart = (
  baseUrl: string,
  adminToken: string,
  domain?: string,
) => Promise<{ shopId: string; campaignId: string; live: boolean; ruleNames: string[]; unchanged: boolean; adds: unknown[]; analytics: unknown }>;
const quickStartPath = '../../openapi/quick-start.ts';
const { quickStart } = (await import(quickStartPath)) as { quickStart: QuickStart };

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('the quick start with generated types', () => {
  it('creates a shop and key, posts the catalog, imports and enables a campaign, reads rules, evaluates and reads analytics', async () => {
    const seen = await quickStart(baseUrl, ADMIN_TOKEN, `quick-${Date.now()}.example.com`);
    expect(seen.shopId).toMatch(/^shp_/);
    expect(seen.campaignId).toMatch(/^cmp_/);
    expect(seen.live).toBe(true);
    expect(seen.ruleNames).toEqual(['$50 or more']);
    expect(seen.unchanged).toBe(true);
    expect(seen.adds).toEqual([expect.objectContaining({ type: 'add', variantId: 'gid://shopify/ProductVariant/11', quantity: 1 })]);
    expect(seen.analytics).toBeTypeOf('object');
  });

  it('stops at the first refused call, with the error body typed (a wrong admin token)', async () => {
    const failing = await quickStart(baseUrl, 'wrong-token').catch((error: unknown) => error);
    expect(String(failing)).toContain('shop: Unauthorized');
  });
});
