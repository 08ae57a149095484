/**
 * The checkout configuration over the discount's two metafields, through the app and the
 * stand-in platform (docs/checkout-function.md "Several metafields"): a connected shop's sync
 * writes `config`, `config2` and `vars` in one call, each within 10,000 bytes; a shrinking
 * configuration empties `config2`; GET …/checkout-config lists each metafield's bytes; enable
 * reports a configuration that does not fit both. Another shop sees none of it. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactRules, joinCheckoutConfig } from '@gcrs/engine/checkout';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createShopDiscountPort } from '../../src/platform/shop-discount-port.ts';
import { domainOf } from '../platform-webhooks/fixtures.ts';
import { deepShopPayload } from '../support/checkout-deep-shop.ts';
import { discountIdOf, grantToken, startTestPlatform } from '../support/platform-standin.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

const SECRET = 'platform-app-secret-for-config-metafields';
const TOKEN = `shpat_${'d4'.repeat(16)}`;

let t: TestApp;
let platform: PlatformStandin;
let shop: TestShop;
let other: TestShop;
let domain = '';

beforeAll(async () => {
  platform = await startTestPlatform(SECRET);
  t = await createTestApp({ PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: platform.url, PLATFORM_DISCOUNT_FUNCTION_ID: 'fn-gifts-2', LOG_LEVEL: 'silent' });
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  domain = await domainOf(t, shop.id);
  grantToken(platform, domain, TOKEN);
  const res = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/platform-connection`, payload: { accessToken: TOKEN } });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await platform.close();
});

function dispatcher() {
  const { config } = t.ctx;
  const port = createShopDiscountPort({ db: t.ctx.db, logger: t.ctx.logger, secret: config.platformAppSecret, functionId: config.platformDiscountFunctionId, adminApiUrl: config.platformAdminApiUrl });
  return createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20 });
}

/** Imports a draft campaign of `count` depth-4 rules (rules `offset`…) and returns its id. */
async function importDeep(target: TestShop, name: string, count: number, offset = 0): Promise<string> {
  const rules = deepShopPayload(offset + count)
    .rules.slice(offset)
    .map((rule) => ({ name: rule.id, enabled: true, conditionTree: rule.conditionTree, giftConfig: rule.giftConfig, options: rule.options }));
  const res = await t.api(target, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name, enabled: false, isDraft: true, rules }] } });
  expect(res.statusCode).toBeLessThan(300);
  const list = (await t.api(target, { method: 'GET', url: '/api/v1/campaigns?perPage=100' })).json() as { campaigns: Array<{ id: string; name: string }> };
  return list.campaigns.find((c) => c.name === name)?.id ?? '';
}

const enable = (target: TestShop, id: string, force = false) => t.api(target, { method: 'POST', url: `/api/v1/campaigns/${id}/enable${force ? '?force=1' : ''}` });
const sizeWarning = async (target: TestShop, id: string) => {
  const res = await enable(target, id);
  return res.statusCode === 409 ? (res.json() as { warnings: Array<Record<string, unknown>>; message: string }) : undefined;
};
const metafieldOf = (key: string) => platform.discounts.metafields.get(domain)?.get(`${discountIdOf(platform, domain) ?? ''} $app:gifts.${key}`);

describe('a configuration over one metafield', () => {
  let big = '';
  it('100 depth-4 rules: no size warning on enable (the health check still warns about the catalog)', async () => {
    big = await importDeep(shop, 'deep 100', 100);
    const body = await sizeWarning(shop, big);
    expect(body?.warnings.some((w) => w.kind === 'checkout_config_size')).toBe(false);
  });

  it('the sync writes config, config2 and vars to the platform, each within 10,000 bytes, joining to every rule', async () => {
    expect((await enable(shop, big, true)).statusCode).toBe(200);
    await dispatcher().runOnce();
    const [config, config2, vars] = ['config', 'config2', 'vars'].map((key) => metafieldOf(key));
    for (const value of [config, config2, vars]) {
      expect(value).toBeDefined();
      expect(Buffer.byteLength(value ?? '')).toBeLessThanOrEqual(10_000);
    }
    const joined = joinCheckoutConfig(JSON.parse(config ?? 'null'), [JSON.parse(config2 ?? 'null')]);
    // Both metafields' rules, every one a readable rule (config2's come back as `r2`).
    const rules = joined === undefined ? [] : compactRules(joined);
    expect(rules).toHaveLength(100);
    expect(rules.every(Array.isArray)).toBe(true);

    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/checkout-config` });
    expect(res.statusCode).toBe(200);
    const body = (res.json() as { checkoutConfig: { bytes: number; limit: number; metafields: Array<{ key: string; bytes: number }>; config: { r: Record<string, string> }; target: string } }).checkoutConfig;
    expect(body).toMatchObject({ target: 'platform', limit: 10000 });
    expect(body.bytes).toBeGreaterThan(10_000);
    expect(Object.keys(body.config.r)).toHaveLength(100);
    expect(body.metafields.map((m) => m.key)).toEqual(['config', 'config2', 'vars']);
    expect(body.metafields.map((m) => m.bytes)).toEqual([config, config2, vars].map((v) => Buffer.byteLength(v ?? '')));

    // This shop's 100 live rules do not count for another shop's 100.
    const theirs = await importDeep(other, 'other deep', 100, 500);
    expect((await sizeWarning(other, theirs))?.warnings.some((w) => w.kind === 'checkout_config_size')).toBe(false);
  });

  it('a shrinking configuration empties config2', async () => {
    expect((await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${big}/disable` })).statusCode).toBe(200);
    const small = await importDeep(shop, 'deep 3', 3, 200);
    expect((await enable(shop, small, true)).statusCode).toBe(200);
    await dispatcher().runOnce();
    expect(metafieldOf('config2')).toBe('{}');
    expect(Object.keys((JSON.parse(metafieldOf('config') ?? 'null') as { r: Record<string, string>; g?: string }).r)).toHaveLength(3);
    expect((JSON.parse(metafieldOf('config') ?? 'null') as { g?: string }).g).toBeUndefined();
  });

  it('more than both metafields hold: 409 checkout_config_size with the metafields, in words', async () => {
    const huge = await importDeep(shop, 'deep 130', 130, 300);
    const body = await sizeWarning(shop, huge);
    const size = body?.warnings.find((w) => w.kind === 'checkout_config_size');
    expect(size).toMatchObject({ kind: 'checkout_config_size', limit: 10000, metafields: 2 });
    expect(Number(size?.bytes)).toBeGreaterThan(20_000);
    expect(body?.message).toMatch(/more than the checkout's 2 metafields of 10000 bytes hold/);
  });

  it('another shop: nothing written, its checkout configuration not found', async () => {
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${other.id}/checkout-config` });
    expect(res.statusCode).toBe(404);
    expect(platform.discounts.metafields.get(await domainOf(t, other.id))?.size ?? 0).toBe(0);
  });
});
