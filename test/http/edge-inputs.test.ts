/**
 * Issue 9 item 6, "Edge inputs": year-0000 and past-9999 timestamps, counts beyond 32 bits and
 * compressed bodies are 400s or 415s (or stored exactly), never 500s, on every route that takes
 * them. Webhook URLs are in test/webhooks/endpoints.test.ts and test/unit/webhook-url.test.ts.
 */
import { gzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCampaignStats } from '../../src/db/schema.ts';
import { signPlatformBody } from '../../src/orders/platform-signature.ts';
import { MAX_LINE_QUANTITY } from '../../src/orders/schema.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId: string;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SCALE: '100', PLATFORM_WEBHOOK_SECRET: 'platform-secret-for-edge-tests' });
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  const res = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name: 'edge' }] } });
  campaignId = (res.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
});
afterAll(() => t.close());

const RANGE_ISSUE = /^Expected a timestamp from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z$/;

/** Instants PostgreSQL or the driver cannot give back as sent: year 0, year 1, and year 10000 in UTC. */
const OUT_OF_RANGE = ['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '0001-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z', '9999-12-31T23:00:00-05:00'];
const EDGES = ['1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'];

const order = (id: string, completedAt: string, lines: unknown[] = []) => ({ id, completedAt, currency: 'USD', total: 100, lines });
const postOrder = (body: unknown, target: TestShop = shop) =>
  t.admin({ method: 'POST', url: `/admin/v1/shops/${target.id}/orders`, payload: body as object });

describe('timestamps outside 1970–9999', () => {
  it.each(OUT_OF_RANGE)('are a 400 naming the field on schedule, import, PUT, orders, events and simulate: %s', async (ts) => {
    const answers = {
      schedule: await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/schedule`, payload: { startAt: ts } }),
      import: await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name: 'y', endAt: ts }] } }),
      put: await t.api(shop, {
        method: 'PUT',
        url: `/api/v1/campaigns/${campaignId}`,
        payload: { name: 'edge', enabled: false, isDraft: false, startAt: ts, endAt: null, rules: [] },
      }),
      order: await postOrder(order(`o-${ts}`, ts)),
      events: await t.api(shop, { method: 'POST', url: '/api/v1/events', payload: { events: [{ type: 'gift_added', campaignId, ruleId: 'rul_x', variantId: 'gid://shopify/ProductVariant/2' }], sentAt: ts } }),
      simulate: await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/simulate`, payload: { context: { cart: { currency: 'USD', lines: [] } }, at: ts } }),
    };
    const paths = { schedule: ['startAt'], import: ['campaigns', 0, 'endAt'], put: ['startAt'], order: ['completedAt'], events: ['sentAt'], simulate: ['at'] };
    for (const [route, res] of Object.entries(answers)) {
      expect(res.statusCode, `${route}: ${res.body}`).toBe(400);
      const body = res.json() as { issue?: string; path?: unknown[] };
      expect(body.path, route).toEqual(paths[route as keyof typeof paths]);
      expect(body.issue, route).toMatch(RANGE_ISSUE);
    }
  });

  it.each(EDGES)('are stored and given back exactly at the edge %s', async (ts) => {
    const res = await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/schedule`, payload: { endAt: ts, startAt: null } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { campaign: { endAt: string } }).campaign.endAt).toBe(ts);
    const got = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` });
    expect((got.json() as { campaign: { endAt: string } }).campaign.endAt).toBe(ts);
    expect((await postOrder(order(`edge-${ts}`, ts))).statusCode).toBe(200);
  });
});

describe('counts beyond 32 bits', () => {
  const giftLine = (quantity: number) => ({
    productId: '1',
    variantId: '2',
    quantity,
    price: 0,
    attributes: { _svc_campaign_id: campaignId },
  });

  it.each([MAX_LINE_QUANTITY + 1, 2 ** 31, 2 ** 40, 2 ** 53 - 1])('an order line quantity of %d is a 400', async (quantity) => {
    const res = await postOrder(order(`q-${quantity}`, '2026-01-01T00:00:00Z', [giftLine(quantity)]));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ path: ['lines', 0, 'quantity'] });
  });

  it('sums gift quantities past 2^31 - 1 in a day without failing an order: the counter saturates', async () => {
    const day = '2026-03-01';
    const lines = Array.from({ length: 1000 }, () => giftLine(MAX_LINE_QUANTITY));
    for (let i = 0; i < 3; i += 1) {
      const res = await postOrder(order(`sat-${i}`, `${day}T10:00:0${i}Z`, lines));
      expect(res.statusCode, res.body).toBe(200);
    }
    const [row] = await t.ctx.db
      .select({ giftsGiven: dailyCampaignStats.giftsGiven })
      .from(dailyCampaignStats)
      .where(and(eq(dailyCampaignStats.shopId, shop.id), eq(dailyCampaignStats.day, day), eq(dailyCampaignStats.campaignId, campaignId)));
    expect(row?.giftsGiven).toBe(2 ** 31 - 1);
  });

  it('money amounts up to 2^53 - 1 minor units are stored exactly (bigint)', async () => {
    const res = await postOrder({ ...order('big-total', '2026-03-02T00:00:00Z'), total: 2 ** 53 - 1 });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("a gift line naming another shop's campaign is not counted for either shop", async () => {
    const res = await postOrder(order('cross', '2026-03-03T00:00:00Z', [giftLine(5)]), other);
    expect(res.statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(dailyCampaignStats).where(eq(dailyCampaignStats.day, '2026-03-03'));
    expect(rows).toEqual([]);
  });
});

describe('compressed request bodies', () => {
  const json = JSON.stringify({ campaigns: [{ name: 'zipped' }] });

  it.each([
    ['gzip', gzipSync(json)],
    ['deflate', gzipSync(json)],
    ['br', Buffer.from(json)],
    ['gzip, identity', gzipSync(json)],
  ])('Content-Encoding: %s is a 415 with Accept-Encoding: identity, never parsed as plain', async (coding, payload) => {
    const res = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
      payload,
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.headers['accept-encoding']).toBe('identity');
    expect(res.json()).toMatchObject({ error: 'Unsupported content encoding; send the body uncompressed', issue: `Content-Encoding: ${coding}` });
  });

  it('a gzip body is refused on the admin API and the platform webhook too', async () => {
    const admin = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/orders`,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify(order('gz', '2026-01-01T00:00:00Z'))),
    });
    expect(admin.statusCode).toBe(415);
    // Signed: an unsigned request is refused (401) before its coding is looked at.
    const gzipped = gzipSync(JSON.stringify(order('gz', '2026-01-01T00:00:00Z')));
    const platform = await t.app.inject({
      method: 'POST',
      url: '/webhooks/platform/orders',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-platform-shop-domain': 'x.example.com',
        'x-platform-hmac-sha256': signPlatformBody(gzipped, 'platform-secret-for-edge-tests'),
      },
      payload: gzipped,
    });
    expect(platform.statusCode, platform.body).toBe(415);
    expect(platform.headers['accept-encoding']).toBe('identity');
  });

  it('identity is no coding, and an empty body with a coding is still no body', async () => {
    const plain = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: json,
    });
    expect(plain.statusCode).toBe(200);
    const empty = await t.api(shop, {
      method: 'POST',
      url: `/api/v1/campaigns/${campaignId}/disable`,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: '',
    });
    expect(empty.statusCode).toBeLessThan(300);
  });
});
