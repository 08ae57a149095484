/**
 * `PUT /campaigns/:id` answers what `GET /campaigns/:id` does (SPEC: "same shape as GET"): on the
 * admin's and the merchant admin's mounts the budget usage as saved is in it, so the editor reads
 * nothing again after a save (docs/merchant-admin.md "What a save answers"); API clients keep
 * SPEC's shape. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId: string;

beforeAll(async () => {
  t = await createTestApp();
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  const base = rule('Capped', { type: 'cart.item_count_gte', value: 1 });
  [campaignId = ''] = await importCampaigns(t, shop, [liveCampaign('Budgeted', [{ ...base, options: { ...base.options, budget: { maxGifts: 5 } } }], { budget: { maxGifts: 9, window: 'day' } })]);
});
afterAll(() => t.close());

/** The campaign as GET returns it, as a PUT body with the rule's budget set to `maxGifts`. */
async function bodyWith(maxGifts: number) {
  const { id: _id, createdAt: _c, updatedAt: _u, experiment: _e, budgetUsage: _b, ...campaign } = (await readCampaign(t, shop, campaignId)) as Record<string, unknown>;
  const rules = (campaign.rules as Array<Record<string, unknown>>).map(({ createdAt: _rc, updatedAt: _ru, ...r }) => ({ ...r, options: { ...(r.options as object), budget: { maxGifts } } }));
  return { ...campaign, rules };
}

describe('PUT /campaigns/:id answers what GET does', () => {
  it("carries the budget usage as saved on the admin's mount, equal to a GET after it", async () => {
    const res = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/campaigns/${campaignId}`, payload: await bodyWith(2) });
    expect(res.statusCode, res.body).toBe(200);
    const { campaign } = res.json() as { campaign: { rules: Array<{ id: string }>; budgetUsage: { rules: Record<string, unknown>; campaign: unknown } } };
    const ruleId = campaign.rules[0]?.id ?? '';
    expect(campaign.budgetUsage.rules[ruleId]).toEqual({ used: 0, maxGifts: 2, window: 'total', windowStart: '1970-01-01', spent: false });
    expect(campaign.budgetUsage.campaign).toMatchObject({ used: 0, maxGifts: 9, window: 'day', spent: false });
    expect(campaign).toEqual(await readCampaign(t, shop, campaignId));
  });

  it("keeps SPEC's shape for API clients: no usage in the public PUT's answer", async () => {
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: await bodyWith(3) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().campaign).not.toHaveProperty('budgetUsage');
    expect(res.json().campaign.rules[0].options.budget).toEqual({ maxGifts: 3, window: 'total' });
  });

  it("is a 404 for another shop's campaign, which is left as it was", async () => {
    const res = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${other.id}/campaigns/${campaignId}`, payload: await bodyWith(4) });
    expect(res.statusCode).toBe(404);
    expect((await readCampaign(t, shop, campaignId)).rules[0]?.options).toMatchObject({ budget: { maxGifts: 3 } });
  });
});
