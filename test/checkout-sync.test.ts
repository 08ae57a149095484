// The checkout configuration through the app: enable answers 409 with the size when the
// shop's live rules would not fit the discount's metafield, and the discount_sync job writes
// the configuration of the live rules through the port (never a truncated one).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../src/db/schema.ts';
import { createOutboxDispatcher } from '../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../src/platform/discount-port.ts';
import { shopPayload } from './support/checkout-shop.ts';
import { createTestApp } from './support/test-app.ts';
import type { TestApp, TestShop } from './support/test-app.ts';
import { createWebhookSender } from '../src/webhooks/sender.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
});
afterAll(() => t.close());

const rulesOf = (count: number, offset = 0) =>
  shopPayload(count + offset).rules.slice(offset).map((rule) => ({ name: rule.id, enabled: true, conditionTree: rule.conditionTree, giftConfig: rule.giftConfig, options: rule.options }));

async function importDraft(target: TestShop, count: number, offset = 0): Promise<string> {
  const res = await t.api(target, {
    method: 'POST',
    url: '/api/v1/campaigns/import',
    payload: { campaigns: [{ name: `c${offset}`, enabled: false, isDraft: true, rules: rulesOf(count, offset) }] },
  });
  expect(res.statusCode).toBeLessThan(300);
  const list = await t.api(target, { method: 'GET', url: '/api/v1/campaigns?perPage=100' });
  const campaigns = (list.json() as { campaigns: Array<{ id: string; name: string }> }).campaigns;
  return campaigns.find((c) => c.name === `c${offset}`)?.id ?? '';
}

describe('checkout configuration size on enable', () => {
  it('answers 409 with the size when the live rules would not fit', async () => {
    // About 94 bytes a rule: 250 rules are more than the two metafields of 10,000 bytes hold.
    const id = await importDraft(shop, 250, 0);
    const res = await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${id}/enable` });
    expect(res.statusCode).toBe(409);
    const body = res.json() as { error: string; warnings: Array<Record<string, unknown>>; message: string };
    const size = body.warnings.find((w) => w.kind === 'checkout_config_size');
    expect(size).toMatchObject({ kind: 'checkout_config_size', limit: 10000, metafields: 2 });
    expect(size?.bytes).toBeGreaterThan(20000);
    expect(body.message).toMatch(/checkout configuration/);
  });

  it('counts only this shop: another shop enables a small campaign past the catalog warnings', async () => {
    const id = await importDraft(other, 3, 200);
    const res = await t.api(other, { method: 'POST', url: `/api/v1/campaigns/${id}/enable` });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { warnings: Array<{ kind: string }> }).warnings.some((w) => w.kind === 'checkout_config_size')).toBe(false);
  });

  it('unknown campaign: 404', async () => {
    const res = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/cmp_doesnotexist0000/enable' });
    expect(res.statusCode).toBe(404);
  });
});

describe('rules the checkout cannot check, on enable', () => {
  const importRules = async (target: TestShop, name: string, conditionTree: unknown) => {
    const [rule] = rulesOf(1);
    const res = await t.api(target, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      payload: { campaigns: [{ name, enabled: false, isDraft: true, rules: [{ ...rule, conditionTree }] }] },
    });
    expect(res.statusCode).toBeLessThan(300);
    const list = await t.api(target, { method: 'GET', url: '/api/v1/campaigns?perPage=100' });
    return (list.json() as { campaigns: Array<{ id: string; name: string }> }).campaigns.find((c) => c.name === name)?.id ?? '';
  };

  it('a market condition answers 409 checkout_excluded with the rule, in words; force=1 enables it', async () => {
    const fresh = await t.createShop('scale');
    const id = await importRules(fresh, 'eu only', { type: 'market.handle_in', value: ['eu'] });
    const res = await t.api(fresh, { method: 'POST', url: `/api/v1/campaigns/${id}/enable` });
    expect(res.statusCode).toBe(409);
    const body = res.json() as { warnings: Array<{ kind: string; ruleId?: string; reason?: string }>; message: string };
    const excluded = body.warnings.filter((w) => w.kind === 'checkout_excluded');
    expect(excluded).toEqual([{ kind: 'checkout_excluded', ruleId: expect.stringMatching(/^rul_/), reason: 'market_condition' }]);
    expect(body.message).toMatch(/names a market.*charged at checkout/);
    expect((await t.api(fresh, { method: 'POST', url: `/api/v1/campaigns/${id}/enable?force=1` })).statusCode).toBe(200);
  });

  it('a country condition is checked at checkout: no such warning', async () => {
    const fresh = await t.createShop('scale');
    const id = await importRules(fresh, 'us only', { type: 'country.in', value: ['US'] });
    const res = await t.api(fresh, { method: 'POST', url: `/api/v1/campaigns/${id}/enable` });
    const warnings = res.statusCode === 409 ? (res.json() as { warnings: Array<{ kind: string }> }).warnings : [];
    expect(warnings.some((w) => w.kind === 'checkout_excluded')).toBe(false);
  });
});

describe('the discount_sync job', () => {
  it('writes the live rules, and fails without truncating when forced past the limit', async () => {
    const port = createRecordingDiscountPort(t.ctx.db);
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20 });
    const small = await importDraft(shop, 4, 300);
    expect((await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${small}/enable?force=1` })).statusCode).toBe(200);
    await dispatcher.runOnce();
    expect(Object.keys((await port.recordedConfig(shop.id))?.config.r ?? [])).toHaveLength(4);
    expect(await port.recordedConfig(other.id)).toBeUndefined();

    // Editing a live campaign's rules rewrites the configuration.
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${small}` })).json() as { campaign: { rules: unknown[] } };
    const put = await t.api(shop, {
      method: 'PUT',
      url: `/api/v1/campaigns/${small}`,
      payload: { ...current.campaign, rules: current.campaign.rules.slice(0, 2) },
    });
    expect(put.statusCode).toBe(200);
    await dispatcher.runOnce();
    expect(Object.keys((await port.recordedConfig(shop.id))?.config.r ?? [])).toHaveLength(2);

    // A schedule boundary gets its own sync, queued once, due at the boundary.
    const endAt = new Date(Date.now() + 3_600_000);
    expect((await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${small}/schedule`, payload: { endAt: endAt.toISOString() } })).statusCode).toBe(200);
    await dispatcher.runOnce();
    const followUps = await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.id, `obx_cfg_${endAt.getTime().toString(36)}`)));
    expect(followUps).toHaveLength(1);
    expect(followUps[0]?.nextAttemptAt.getTime()).toBe(endAt.getTime());
    expect(followUps[0]?.status).toBe('pending');

    const big = (await t.api(shop, { method: 'GET', url: '/api/v1/campaigns?perPage=100' })).json() as { campaigns: Array<{ id: string; name: string }> };
    const bigId = big.campaigns.find((c) => c.name === 'c0')?.id ?? '';
    expect((await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${bigId}/enable?force=1` })).statusCode).toBe(200);
    expect(await dispatcher.runOnce()).toMatchObject({ failed: 1 });
    // The platform keeps the last configuration that fitted.
    expect(Object.keys((await port.recordedConfig(shop.id))?.config.r ?? [])).toHaveLength(2);
    const [failed] = await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.status, 'failed')));
    expect(failed?.lastError).toMatch(/^Checkout configuration is \d+ bytes, more than its 2 metafields of 10000 bytes hold: not written$/);
  });
});
