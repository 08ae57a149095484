/**
 * SPEC "States and transitions", one test per row (and the edges the rows imply): the new
 * state, and exactly the side effects the row lists — webhooks as a receiver gets them,
 * discount syncs as the port recorded them, the rules version. The admin mount's trigger and
 * another shop are in states-admin-and-isolation.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import type { TestShop } from '../support/test-app.ts';
import { createHarnessWithShop, shopSteps } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
let shop: TestShop;
beforeAll(async () => ({ h, shop } = await createHarnessWithShop()));
afterAll(() => h.close());
const { api, read, activated } = shopSteps(() => h, () => shop);


describe('POST /campaigns/:id/enable', () => {
  it('makes a draft live, bumps the rules version, syncs the discount and sends campaign.activated', async () => {
    const id = await h.createCampaign(shop, { enabled: false, isDraft: true });
    await h.drain(shop);
    const version = await h.rulesVersion(shop);
    const res = await api('POST', `/campaigns/${id}/enable`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, campaign: { id, enabled: true, isDraft: false } });
    expect(await read(id)).toMatchObject({ enabled: true, isDraft: false });
    expect(await h.rulesVersion(shop)).toBeGreaterThan(version);
    expect(await h.drain(shop)).toEqual([activated(id, 'api')]);
    expect((await h.discountState(shop))[id]).toBe(true);
  });

  it('makes a disabled (not draft) campaign live the same way', async () => {
    const id = await h.createCampaign(shop, { enabled: false, isDraft: false });
    const res = await api('POST', `/campaigns/${id}/enable`);
    expect(res.statusCode).toBe(200);
    expect(await h.drain(shop)).toEqual([activated(id, 'api')]);
  });

  it('makes an enabled draft live: that is a transition to live too', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: true });
    expect((await api('POST', `/campaigns/${id}/enable`)).statusCode).toBe(200);
    expect(await read(id)).toMatchObject({ enabled: true, isDraft: false });
    expect(await h.drain(shop)).toEqual([activated(id, 'api')]);
  });

  it('answers 200 for a live campaign and changes nothing', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: false });
    await h.drain(shop);
    const version = await h.rulesVersion(shop);
    const outboxRows = await h.outboxCount(shop);
    const res = await api('POST', `/campaigns/${id}/enable`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, campaign: { id, enabled: true, isDraft: false } });
    expect(await h.rulesVersion(shop)).toBe(version);
    expect(await h.outboxCount(shop)).toBe(outboxRows);
  });

  it('leaves the campaign unchanged on a failed health check (409) and queues nothing', async () => {
    const id = await h.createCampaign(shop, { rules: [{ ...rule(), giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/999', quantity: 1 }] } }] });
    const outboxRows = await h.outboxCount(shop);
    const res = await api('POST', `/campaigns/${id}/enable`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'health_warnings' });
    expect(await read(id)).toMatchObject({ enabled: false, isDraft: true });
    expect(await h.outboxCount(shop)).toBe(outboxRows);
  });

  it('answers 403 when the active-campaign cap is reached, even with force=1, and changes nothing', async () => {
    const capped = await h.newShop();
    await h.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${capped.id}`, payload: { limits: { activeCampaigns: 1 } } });
    const live = await h.createCampaign(capped, { enabled: true, isDraft: false });
    const id = await h.createCampaign(capped);
    for (const query of ['', '?force=1']) {
      const res = await h.t.api(capped, { method: 'POST', url: `/api/v1/campaigns/${id}/enable${query}` });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'Plan limit exceeded', limit: 'activeCampaigns', max: 1 });
    }
    // The live campaign itself may be enabled again: it is already counted.
    expect((await h.t.api(capped, { method: 'POST', url: `/api/v1/campaigns/${live}/enable` })).statusCode).toBe(200);
    expect((await h.drain(capped)).filter((e) => e.data.campaignId === id)).toEqual([]);
    expect((await h.t.api(capped, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json()).toMatchObject({
      campaign: { enabled: false, isDraft: true },
    });
  });
});

describe('the rules payload', () => {
  it('follows enable, disable and schedule at once, even when it was cached just before', async () => {
    const id = await h.createCampaign(shop);
    const campaignIds = async () =>
      ((await api('GET', '/rules')).json() as { rules: Array<{ campaignId: string }> }).rules.map((r) => r.campaignId);
    expect(await campaignIds()).not.toContain(id);
    await api('POST', `/campaigns/${id}/enable`);
    expect(await campaignIds()).toContain(id);
    await api('POST', `/campaigns/${id}/schedule`, { startAt: '2099-01-01T00:00:00.000Z' });
    expect(await campaignIds()).not.toContain(id);
    await api('POST', `/campaigns/${id}/schedule`, { startAt: null });
    expect(await campaignIds()).toContain(id);
    await api('POST', `/campaigns/${id}/disable`);
    expect(await campaignIds()).not.toContain(id);
  });
});

describe('POST /campaigns/:id/disable', () => {
  it('disables a live campaign: version bump, discount synced off, campaign.deactivated with trigger api', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: false });
    await h.drain(shop);
    const version = await h.rulesVersion(shop);
    const res = await api('POST', `/campaigns/${id}/disable`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, campaign: { id, enabled: false } });
    expect(await read(id)).toMatchObject({ enabled: false, isDraft: false });
    expect(await h.rulesVersion(shop)).toBeGreaterThan(version);
    expect(await h.drain(shop)).toEqual([
      { type: 'campaign.deactivated', data: { shopId: shop.id, campaignId: id, name: 'Promo', enabled: false, isDraft: false, trigger: 'api' } },
    ]);
    expect((await h.discountState(shop))[id]).toBe(false);
  });

  it('answers 200 for a disabled campaign and changes nothing', async () => {
    const id = await h.createCampaign(shop);
    const outboxRows = await h.outboxCount(shop);
    const version = await h.rulesVersion(shop);
    const res = await api('POST', `/campaigns/${id}/disable`);
    expect(res.json()).toEqual({ ok: true, campaign: { id, enabled: false } });
    expect(await h.rulesVersion(shop)).toBe(version);
    expect(await h.outboxCount(shop)).toBe(outboxRows);
  });

  it('disables an enabled draft without a webhook: it was not live', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: true });
    await h.drain(shop);
    expect((await api('POST', `/campaigns/${id}/disable`)).statusCode).toBe(200);
    expect(await read(id)).toMatchObject({ enabled: false, isDraft: true });
    expect(await h.drain(shop)).toEqual([]);
  });
});

describe('PUT /campaigns/:id', () => {
  const body = (c: Record<string, unknown>, changes: Record<string, unknown>) => ({ ...c, ...changes });

  it('sends campaign.activated when the PUT turns enabled on, and deactivated when it turns it off', async () => {
    const id = await h.createCampaign(shop, { enabled: false, isDraft: false });
    await h.drain(shop);
    const on = await api('PUT', `/campaigns/${id}`, body(await read(id), { enabled: true, name: 'Renamed' }));
    expect(on.statusCode).toBe(200);
    expect(await h.drain(shop)).toEqual([activated(id, 'api', 'Renamed')]);
    expect((await h.discountState(shop))[id]).toBe(true);
    const off = await api('PUT', `/campaigns/${id}`, body(await read(id), { enabled: false }));
    expect(off.statusCode).toBe(200);
    expect(await h.drain(shop)).toEqual([
      { type: 'campaign.deactivated', data: { shopId: shop.id, campaignId: id, name: 'Renamed', enabled: false, isDraft: false, trigger: 'api' } },
    ]);
    expect((await h.discountState(shop))[id]).toBe(false);
  });

  it('sends no webhook when enabled stays as it was; a live campaign only resyncs the checkout configuration', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: false });
    await h.drain(shop);
    const outboxRows = await h.outboxCount(shop);
    const res = await api('PUT', `/campaigns/${id}`, body(await read(id), { name: 'Other name', rules: [rule('New rule')] }));
    expect(res.statusCode).toBe(200);
    // CONTRACT "Checkout": the discount's configuration holds the live rules, so it is rewritten.
    expect(await h.outboxCount(shop)).toBe(outboxRows + 1);
    expect(await h.drain(shop)).toEqual([]);
    expect((await h.discountState(shop))[id]).toBe(true);
  });

  it('queues nothing at all when a campaign that is not live is edited', async () => {
    const id = await h.createCampaign(shop, { enabled: false, isDraft: false });
    await h.drain(shop);
    const outboxRows = await h.outboxCount(shop);
    const res = await api('PUT', `/campaigns/${id}`, body(await read(id), { name: 'Other name', rules: [rule('New rule')] }));
    expect(res.statusCode).toBe(200);
    expect(await h.outboxCount(shop)).toBe(outboxRows);
  });
});

describe('DELETE /campaigns/:id', () => {
  it('of a live campaign sends campaign.deactivated (trigger api) and no deletion event', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: false });
    await h.drain(shop);
    const res = await api('DELETE', `/campaigns/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await api('GET', `/campaigns/${id}`)).statusCode).toBe(404);
    expect(await h.drain(shop)).toEqual([
      {
        type: 'campaign.deactivated',
        data: { shopId: shop.id, campaignId: id, name: 'Promo', enabled: false, isDraft: false, trigger: 'api', deleted: true },
      },
    ]);
    expect((await h.discountState(shop))[id]).toBe(false);
  });

  it.each([
    ['a draft', { enabled: false, isDraft: true }],
    ['a disabled campaign', { enabled: false, isDraft: false }],
    ['an enabled draft', { enabled: true, isDraft: true }],
  ])('of %s sends no webhook', async (_what, state) => {
    const id = await h.createCampaign(shop, state);
    await h.drain(shop);
    const outboxRows = await h.outboxCount(shop);
    expect((await api('DELETE', `/campaigns/${id}`)).statusCode).toBe(200);
    expect(await h.outboxCount(shop)).toBe(outboxRows);
    expect(await h.drain(shop)).toEqual([]);
  });
});

describe('POST /campaigns/import', () => {
  it('creates new campaigns without webhooks, and syncs the discount of the live ones', async () => {
    const res = await api('POST', '/campaigns/import', {
      campaigns: [campaign('Live', { enabled: true, isDraft: false }), campaign('Draft'), campaign('Enabled draft', { enabled: true })],
    });
    expect(res.statusCode).toBe(200);
    const [live, draft, enabledDraft] = (res.json() as { campaignIds: string[] }).campaignIds;
    expect(await h.drain(shop)).toEqual([]);
    const synced = await h.discountState(shop);
    expect(live && synced[live]).toBe(true);
    expect(draft && synced[draft]).toBeUndefined();
    expect(enabledDraft && synced[enabledDraft]).toBeUndefined();
  });
});

describe('POST /campaigns/:id/schedule', () => {
  it('sets the window without touching the state and without a webhook', async () => {
    const id = await h.createCampaign(shop, { enabled: true, isDraft: false });
    await h.drain(shop);
    const version = await h.rulesVersion(shop);
    const res = await api('POST', `/campaigns/${id}/schedule`, { startAt: '2030-01-01T00:00:00.000Z' });
    expect(res.statusCode).toBe(200);
    expect(await read(id)).toMatchObject({ enabled: true, isDraft: false, startAt: '2030-01-01T00:00:00.000Z' });
    expect(await h.rulesVersion(shop)).toBeGreaterThan(version);
    expect(await h.drain(shop)).toEqual([]);
  });
});
