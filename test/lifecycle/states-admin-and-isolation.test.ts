/**
 * SPEC "States and transitions" from other callers: the admin mount reports trigger admin on
 * enable, disable, PUT and DELETE; another shop gets 404 on this shop's campaign (which stays
 * untouched) and never receives this shop's webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import type { TestShop } from '../support/test-app.ts';
import { createHarnessWithShop, product, shopSteps } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
let shop: TestShop;
beforeAll(async () => ({ h, shop } = await createHarnessWithShop()));
afterAll(() => h.close());
const { api, read, activated } = shopSteps(() => h, () => shop);

describe('the admin mount', () => {
  it('reports trigger admin on enable, disable, PUT and DELETE', async () => {
    const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      h.t.admin({ method, url: `/admin/v1/shops/${shop.id}${url}`, ...(payload === undefined ? {} : { payload }) });
    const id = await h.createCampaign(shop);
    await h.drain(shop);
    // Drained after each step: one batch is delivered in parallel, so arrival order is not send order.
    const events: Array<{ type: string; data: Record<string, unknown> }> = [];
    expect((await admin('POST', `/campaigns/${id}/enable`)).statusCode).toBe(200);
    events.push(...(await h.drain(shop)));
    expect((await admin('POST', `/campaigns/${id}/disable`)).statusCode).toBe(200);
    events.push(...(await h.drain(shop)));
    expect((await admin('PUT', `/campaigns/${id}`, { ...(await read(id)), enabled: true })).statusCode).toBe(200);
    events.push(...(await h.drain(shop)));
    expect((await admin('DELETE', `/campaigns/${id}`)).statusCode).toBe(200);
    events.push(...(await h.drain(shop)));
    expect(events.map((e) => [e.type, e.data.trigger])).toEqual([
      ['campaign.activated', 'admin'],
      ['campaign.deactivated', 'admin'],
      ['campaign.activated', 'admin'],
      ['campaign.deactivated', 'admin'],
    ]);
  });
});

describe('another shop', () => {
  it('gets 404 Campaign not found on enable, disable and schedule, and the campaign is untouched', async () => {
    const other = await h.newShop();
    const id = await h.createCampaign(shop);
    for (const [path, payload] of [
      ['enable', undefined],
      ['enable?force=1', undefined],
      ['disable', undefined],
      ['schedule', { endAt: '2031-01-01T00:00:00.000Z' }],
    ] as const) {
      const res = await h.t.api(other, { method: 'POST', url: `/api/v1/campaigns/${id}/${path}`, ...(payload ? { payload } : {}) });
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found'));
    }
    expect(await read(id)).toMatchObject({ enabled: false, isDraft: true, endAt: null });
  });

  it('does not receive this shop\'s webhooks', async () => {
    const other = await h.newShop();
    await h.t.admin({ method: 'POST', url: `/admin/v1/shops/${other.id}/catalog`, payload: { products: [product(1)] } });
    const id = await h.createCampaign(shop);
    await h.drain(other);
    await api('POST', `/campaigns/${id}/enable`);
    expect(await h.drain(other)).toEqual([]);
    expect(await h.drain(shop)).toEqual([activated(id, 'api')]);
  });
});
