import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { etagOf, getRules, readCampaign, startExperiment } from './helpers.ts';

let t: TestApp;
let shop: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
});
afterAll(() => t.close());

const live = (name: string, extra: Record<string, unknown> = {}) => campaign(name, { enabled: true, isDraft: false, ...extra });

describe('GET /rules caching headers', () => {
  it('sends a strong ETag and Cache-Control: private, max-age=60', async () => {
    const res = await getRules(t, shop);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('answers a matching If-None-Match with 304, no body and no content-type', async () => {
    const etag = await etagOf(t, shop);
    const res = await getRules(t, shop, 'api', { 'if-none-match': etag });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it.each([
    ['the weak form', (etag: string) => `W/${etag}`],
    ['a list holding it', (etag: string) => `"stale-1", W/"stale-2", ${etag}`],
    ['a list without spaces', (etag: string) => `"stale-1",${etag}`],
    ['the wildcard', () => '*'],
  ])('answers %s with 304', async (_name, header) => {
    const etag = await etagOf(t, shop);
    const res = await getRules(t, shop, 'api', { 'if-none-match': header(etag) });
    expect(res.statusCode).toBe(304);
  });

  it.each([
    ['another tag', '"something-else"'],
    ['an unquoted value', 'garbage'],
    ['an empty header', ''],
  ])('answers %s with 200 and the body', async (_name, header) => {
    const res = await getRules(t, shop, 'api', { 'if-none-match': header });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('rules');
  });

  it('gives the admin mount its own ETag (its body differs in debugAllowed)', async () => {
    const api = await etagOf(t, shop, 'api');
    const admin = await etagOf(t, shop, 'admin');
    expect(admin).not.toBe(api);
    expect((await getRules(t, shop, 'admin', { 'if-none-match': api })).statusCode).toBe(200);
    expect((await getRules(t, shop, 'admin', { 'if-none-match': admin })).statusCode).toBe(304);
  });

  it("never answers 304 to another shop's ETag", async () => {
    const other = await t.createShop('scale');
    const theirs = await etagOf(t, other);
    expect((await getRules(t, shop, 'api', { 'if-none-match': theirs })).statusCode).toBe(200);
  });

  it('keeps the ETag while nothing changes', async () => {
    expect(await etagOf(t, shop)).toBe(await etagOf(t, shop));
  });
});

describe('every write kind changes the ETag and the payload at once', () => {
  const admin = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    t.admin({ method, url: `/admin/v1/shops/${shop.id}${path}`, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  /** Runs `write`, then checks that the old ETag no longer validates. */
  async function expectNewEtag(write: () => Promise<{ statusCode: number; body: string }>) {
    const before = await etagOf(t, shop);
    const res = await write();
    expect(res.statusCode, res.body).toBeLessThan(300);
    const after = await getRules(t, shop, 'api', { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    return after.json() as { rules: Array<{ name: string; id: string }>; widgets: { toast: { enabled: boolean } }; experiments?: unknown[] };
  }

  let campaignId = '';

  it('import', async () => {
    const payload = await expectNewEtag(() =>
      t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [live('Promo', { rules: [rule('a'), rule('b')] })] } }),
    );
    expect(payload.rules.map((r) => r.name)).toEqual(['a', 'b']);
    const list = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
    campaignId = (list.json() as { campaigns: Array<{ id: string }> }).campaigns[0]?.id ?? '';
  });

  it('disable, enable and schedule', async () => {
    let payload = await expectNewEtag(() => t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/disable` }));
    expect(payload.rules).toEqual([]);
    payload = await expectNewEtag(() => t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/enable?force=1` }));
    expect(payload.rules).toHaveLength(2);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    payload = await expectNewEtag(() =>
      t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/schedule`, payload: { startAt: future } }),
    );
    expect(payload.rules).toEqual([]);
    payload = await expectNewEtag(() =>
      t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/schedule`, payload: { startAt: null } }),
    );
    expect(payload.rules).toHaveLength(2);
  });

  it('PUT', async () => {
    const current = await readCampaign(t, shop, campaignId);
    const body = {
      name: current.name,
      enabled: true,
      isDraft: false,
      startAt: null,
      endAt: null,
      rules: current.rules.map((r) => ({ ...r, name: `${String(r.name)}!` })),
    };
    const payload = await expectNewEtag(() => t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: body }));
    expect(payload.rules.map((r) => r.name)).toEqual(['a!', 'b!']);
  });

  it('widgets PUT', async () => {
    const widgets = { ...DEFAULT_WIDGET_DOCUMENT, toast: { ...DEFAULT_WIDGET_DOCUMENT.toast, enabled: true } };
    const payload = await expectNewEtag(() => t.api(shop, { method: 'PUT', url: '/api/v1/widgets', payload: widgets }));
    expect(payload.widgets.toast.enabled).toBe(true);
  });

  it('shop settings PATCH through the admin API', async () => {
    await expectNewEtag(() => t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { engine: { evaluationDelay: 10 } } } }));
  });

  let experimentId = '';

  it('experiment start', async () => {
    const ruleIds = (await readCampaign(t, shop, campaignId)).rules.map((r) => r.id);
    const before = await etagOf(t, shop);
    experimentId = (await startExperiment(t, shop, campaignId, ruleIds)).id;
    const after = await getRules(t, shop, 'api', { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.json().experiments).toHaveLength(1);
  });

  it('experiment stop', async () => {
    const payload = await expectNewEtag(() => admin('POST', `/campaigns/${campaignId}/experiments/${experimentId}/stop`));
    expect(payload.experiments).toBeUndefined();
  });

  it('experiment conclude', async () => {
    const winner = (await readCampaign(t, shop, campaignId)).rules[0]?.id;
    expect(winner).toBeDefined();
    const list = await admin('POST', `/campaigns/${campaignId}/experiments`, {
      primaryMetric: 'average_order_value',
      variants: (await readCampaign(t, shop, campaignId)).rules.map((r, i) => ({ name: `v${i}`, ruleId: r.id, weight: 1 })),
    });
    const experiment = list.json().experiment as { id: string; variants: Array<{ id: string }> };
    await expectNewEtag(() =>
      admin('POST', `/campaigns/${campaignId}/experiments/${experiment.id}/conclude`, { winnerVariantId: experiment.variants[0]?.id }),
    );
  });

  it('DELETE', async () => {
    const payload = await expectNewEtag(() => t.api(shop, { method: 'DELETE', url: `/api/v1/campaigns/${campaignId}` }));
    expect(payload.rules).toEqual([]);
  });

  it('a currency change', async () => {
    await expectNewEtag(() => admin('PATCH', '', { currency: 'EUR' }));
  });

  it('a plan change', async () => {
    // Through the admin mount: the API key stops working below Scale.
    const before = await etagOf(t, shop, 'admin');
    expect((await admin('PATCH', '', { plan: 'pro' })).statusCode).toBe(200);
    const after = await getRules(t, shop, 'admin', { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).toContain('-pro-');
  });
});
