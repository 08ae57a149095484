/** CONTRACT "Admin API": webhook endpoints and the delivery log. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS_PER_SHOP } from '../../src/webhooks/schemas.ts';
import { createWebhookSetup } from './setup.ts';
import type { WebhookSetup } from './setup.ts';
import { errorBody } from '../support/error-body.ts';

let s: WebhookSetup;
beforeAll(async () => {
  s = await createWebhookSetup();
});
afterAll(() => s.close());

const create = (shopId: string, payload: unknown) =>
  s.t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/webhook-endpoints`, payload: payload as object });
const list = async (shopId: string) =>
  (await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/webhook-endpoints` })).json() as { endpoints: Array<Record<string, unknown>> };
const deliveries = async (shopId: string, query = '') =>
  (await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/webhook-deliveries${query}` })).json() as {
    deliveries: Array<Record<string, unknown>>;
  };

describe('POST /shops/:shopId/webhook-endpoints', () => {
  it('creates an endpoint for every kind with a whsec_ secret shown once', async () => {
    const shop = await s.t.createShop('free');
    const res = await create(shop.id, { url: 'https://hooks.example.com/gcrs' });
    expect(res.statusCode).toBe(201);
    const { endpoint } = res.json() as { endpoint: Record<string, unknown> };
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^whe_/),
      url: 'https://hooks.example.com/gcrs',
      events: [],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: expect.any(String),
      disabledAt: null,
    });
    const listed = await list(shop.id);
    expect(listed.endpoints).toEqual([{ id: endpoint.id, url: endpoint.url, events: [], createdAt: endpoint.createdAt, disabledAt: null }]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('keeps an event filter, without repeats', async () => {
    const shop = await s.t.createShop('free');
    const res = await create(shop.id, { url: 'http://127.0.0.1:8080/x', events: ['order.converted', 'campaign.activated', 'order.converted'] });
    expect(res.statusCode).toBe(201);
    expect((res.json() as { endpoint: { events: string[] } }).endpoint.events).toEqual(['order.converted', 'campaign.activated']);
  });

  it.each([
    ['no url', {}, ['url']],
    ['an ftp url', { url: 'ftp://example.com/x' }, ['url']],
    ['not a url', { url: 'example.com/hook' }, ['url']],
    // Issue 9: URLs fetch refuses on every attempt are refused at creation.
    ['a url with credentials', { url: 'https://user:pass@hooks.example.com/x' }, ['url']],
    ['a url with a user name only', { url: 'https://user@hooks.example.com/x' }, ['url']],
    ['a blocked port (SMTP)', { url: 'http://hooks.example.com:25/x' }, ['url']],
    ['a blocked port (IRC, 6679)', { url: 'https://hooks.example.com:6679/x' }, ['url']],
    ['port 0', { url: 'http://hooks.example.com:0/x' }, ['url']],
    ['a file url', { url: 'file:///etc/passwd' }, ['url']],
    ['a javascript url', { url: 'javascript:alert(1)' }, ['url']],
    ['an unknown event kind', { url: 'https://example.com', events: ['campaign.deleted'] }, ['events', 0]],
    ['an unknown field', { url: 'https://example.com', secret: 'whsec_mine' }, []],
  ])('answers 400 for %s', async (_what, payload, path) => {
    const shop = await s.t.createShop('free');
    const res = await create(shop.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', issue: expect.any(String), path });
  });

  it(`answers 409 past ${MAX_ENDPOINTS_PER_SHOP} endpoints`, async () => {
    const shop = await s.t.createShop('free');
    for (let i = 0; i < MAX_ENDPOINTS_PER_SHOP; i += 1) expect((await create(shop.id, { url: `https://example.com/${i}` })).statusCode).toBe(201);
    const res = await create(shop.id, { url: 'https://example.com/one-more' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'Too many webhook endpoints' });
  });

  it('answers 404 for an unknown shop and 401 without the admin token', async () => {
    expect((await create('shp_unknown', { url: 'https://example.com' })).statusCode).toBe(404);
    const res = await s.t.app.inject({ method: 'GET', url: '/admin/v1/shops/shp_unknown/webhook-endpoints' });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /shops/:shopId/webhook-endpoints/:endpointId', () => {
  it('removes the endpoint and cancels its pending deliveries, which stay in the log', async () => {
    const { shop, endpointId } = await s.newShop();
    await s.emit(shop);
    const res = await s.t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/webhook-endpoints/${endpointId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await list(shop.id)).endpoints).toEqual([]);
    expect((await deliveries(shop.id)).deliveries).toEqual([
      expect.objectContaining({ endpointId, status: 'cancelled', lastError: 'Endpoint deleted', attempts: 0, attemptLog: [] }),
    ]);
    // Events after the deletion are not queued for it.
    await s.emit(shop);
    expect((await deliveries(shop.id)).deliveries).toHaveLength(1);
  });

  it('answers 404 for an unknown endpoint and for another shop\'s endpoint, which stays', async () => {
    const { shop, endpointId } = await s.newShop();
    const other = await s.t.createShop('free');
    const unknown = await s.t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/webhook-endpoints/whe_unknown` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(errorBody('Webhook endpoint not found', 'not_found'));
    const cross = await s.t.admin({ method: 'DELETE', url: `/admin/v1/shops/${other.id}/webhook-endpoints/${endpointId}` });
    expect(cross.statusCode).toBe(404);
    expect((await list(shop.id)).endpoints).toHaveLength(1);
  });
});

describe('GET /shops/:shopId/webhook-deliveries', () => {
  it('lists newest first with the attempt log, filters by status, and limits', async () => {
    const { shop } = await s.newShop();
    const first = await s.emit(shop, 'gift.added');
    s.receiver.respond = () => ({ status: 500 });
    await s.dispatcher({ random: () => 0.5 }).runOnce();
    const second = await s.emit(shop, 'order.converted');
    const all = (await deliveries(shop.id)).deliveries;
    expect(all.map((d) => d.messageId)).toEqual([second, first]);
    expect(all[1]).toMatchObject({
      type: 'gift.added',
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'Receiver answered 500',
      attemptLog: [{ attempt: 1, statusCode: 500, error: 'Receiver answered 500', durationMs: expect.any(Number), attemptedAt: expect.any(String) }],
    });
    expect((await deliveries(shop.id, '?status=pending')).deliveries).toHaveLength(2);
    expect((await deliveries(shop.id, '?status=delivered')).deliveries).toEqual([]);
    expect((await deliveries(shop.id, '?limit=1')).deliveries.map((d) => d.messageId)).toEqual([second]);
    s.receiver.respond = () => ({ status: 200 });
  });

  it('answers 400 for an unknown status or a bad limit', async () => {
    const { shop } = await s.newShop();
    for (const query of ['?status=sent', '?limit=0', '?limit=101', '?limit=x']) {
      const res = await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-deliveries${query}` });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('shows only the shop\'s own deliveries', async () => {
    const { shop } = await s.newShop();
    const other = await s.newShop();
    await s.emit(shop);
    expect((await deliveries(other.shop.id)).deliveries).toEqual([]);
    expect((await deliveries(shop.id)).deliveries).toHaveLength(1);
  });
});
