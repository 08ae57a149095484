/**
 * POST /webhooks/platform (CONTRACT part two "Platform webhooks"): the platform's headers and
 * signature, the topics' effects through the existing intake, and "a delivery seen
 * twice is processed once". The catalog topics are in catalog-topics.test.ts. Happy, error and
 * cross-shop cases; PGlite and PostgreSQL.
 */
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPlatformBody } from '../../src/orders/platform-signature.ts';
import { orders, outbox, platformWebhookDeliveries, redemptions, webhookEndpoints } from '../../src/db/schema.ts';
import { pruneDeliveries } from '../../src/platform-webhooks/deliveries.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { LARGE_ORDER_ID, SECRET, URL, deliver, domainOf, ordersPaidText, productPayload, twoShops } from './fixtures.ts';

describe('POST /webhooks/platform', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let domain: string;
  let otherDomain: string;
  let promo: GiftCampaign;

  beforeAll(async () => {
    t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
    ({ shop, other, domain, otherDomain } = await twoShops(t));
    promo = await createGiftCampaign(t, shop.id, 1);
  });
  afterAll(() => t.close());

  const summary = async (s: TestShop) =>
    ((await t.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/analytics?from=2026-01-15&to=2026-01-15` })).json() as {
      summary: { totalOrders: number; totalGifts: number };
    }).summary;
  const redemptionCount = async (shopId: string, customerId: string) =>
    (await t.ctx.db.select().from(redemptions).where(and(eq(redemptions.shopId, shopId), eq(redemptions.customerId, customerId)))).reduce(
      (sum, row) => sum + row.count,
      0,
    );
  const storedOrder = async (shopId: string, id: string) =>
    (await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, shopId), eq(orders.id, id))))[0];

  describe('signature and headers', () => {
    const raw = () => ordersPaidText({ id: '1001' });
    const send = (body: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: URL, payload: body, headers: { 'content-type': 'application/json', ...headers } });
    const platformHeaders = (body: string) => ({
      'x-shopify-hmac-sha256': signPlatformBody(body, SECRET),
      'x-shopify-shop-domain': domain,
      'x-shopify-topic': 'orders/paid',
      'x-shopify-webhook-id': 'wh-sig',
    });

    it.each([
      ['a missing signature', (body: string) => ({ ...platformHeaders(body), 'x-shopify-hmac-sha256': '' })],
      ['a signature with another secret', (body: string) => ({ ...platformHeaders(body), 'x-shopify-hmac-sha256': signPlatformBody(body, 'not-the-secret') })],
      ['a signature of another body', (body: string) => ({ ...platformHeaders(body), 'x-shopify-hmac-sha256': signPlatformBody(`${body} `, SECRET) })],
      ['a hex signature', (body: string) => ({ ...platformHeaders(body), 'x-shopify-hmac-sha256': Buffer.from(signPlatformBody(body, SECRET), 'base64').toString('hex') })],
      ['the old route\'s header name', (body: string) => {
        const { 'x-shopify-hmac-sha256': signature, ...rest } = platformHeaders(body);
        return { ...rest, 'x-platform-hmac-sha256': signature };
      }],
    ])('answers 401 JSON for %s, and records nothing', async (_name, headersOf) => {
      const body = raw();
      const res = await send(body, headersOf(body));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
      expect(await storedOrder(shop.id, '1001')).toBeUndefined();
    });

    it('answers 401 when one byte of the signed body changed', async () => {
      const body = raw();
      const res = await send(body.replace('"199.00"', '"999.00"'), platformHeaders(body));
      expect(res.statusCode).toBe(401);
    });

    it.each(['x-shopify-topic', 'x-shopify-webhook-id', 'x-shopify-shop-domain'])('answers 400 for a signed delivery without %s', async (header) => {
      const body = raw();
      const headers: Record<string, string> = platformHeaders(body);
      delete headers[header];
      const res = await send(body, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid webhook headers', path: [header] });
    });

    it('does not exist without PLATFORM_APP_SECRET (404, like an unknown route)', async () => {
      const plain = await createTestApp();
      try {
        const body = raw();
        const res = await plain.app.inject({ method: 'POST', url: URL, payload: body, headers: { 'content-type': 'application/json', ...platformHeaders(body) } });
        expect(res.statusCode).toBe(404);
      } finally {
        await plain.close();
      }
    });
  });

  describe('deliveries the service does not act on', () => {
    it('answers 200 ignored for a shop domain no shop has, so the platform does not retry for 48 hours', async () => {
      const res = await deliver(t, ordersPaidText({ id: '1002' }), { topic: 'orders/paid', domain: 'uninstalled-long-ago.myshopify.com' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, ignored: 'unknown_shop' });
    });

    it('answers 200 ignored for a topic it does not handle, and claims no delivery id', async () => {
      const res = await deliver(t, { id: 1 }, { topic: 'customers/create', domain, webhookId: 'wh-unknown-topic' });
      expect(res.json()).toEqual({ ok: true, ignored: 'unknown_topic' });
      const claimed = await t.ctx.db.select().from(platformWebhookDeliveries).where(eq(platformWebhookDeliveries.webhookId, 'wh-unknown-topic'));
      expect(claimed).toEqual([]);
    });

    it('answers 400 for a signed body that is not JSON, and for a payload its topic does not take', async () => {
      const malformed = await deliver(t, '{"id": ', { topic: 'orders/paid', domain });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ error: 'Malformed JSON body' });
      for (const [body, path] of [
        [ordersPaidText({ id: '1003', lines: [{ price: 'abc' }] }), ['line_items', 0, 'price']],
        [ordersPaidText({ id: '1003', lines: [{ price: '1.999' }] }), ['line_items', 0, 'price']],
        [ordersPaidText({ id: '1003', totalPrice: '-1.00' }), ['total_price']],
        [ordersPaidText({ id: '1003', currency: 'XXXX' }), ['currency']],
        [JSON.stringify({ id: 5, title: 'x', status: 'gone', variants: [] }), ['status']],
      ] as const) {
        const topic = body.includes('line_items') ? 'orders/paid' : 'products/update';
        const res = await deliver(t, body, { topic, domain, webhookId: 'wh-invalid' });
        expect(res.statusCode, body).toBe(400);
        expect(res.json()).toMatchObject({ path });
      }
      // A refused delivery claims nothing: the platform's retry is processed.
      const retry = await deliver(t, ordersPaidText({ id: '1003' }), { topic: 'orders/paid', domain, webhookId: 'wh-invalid' });
      expect(retry.json()).toEqual({ ok: true, duplicate: false });
    });

    it('answers 400 for an order in another currency than the shop\'s, and counts nothing', async () => {
      const res = await deliver(t, ordersPaidText({ id: '1004', currency: 'EUR' }), { topic: 'orders/paid', domain });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid order body', path: ['currency'] });
      expect(await storedOrder(shop.id, '1004')).toBeUndefined();
    });
  });

  describe('orders/paid', () => {
    const giftLine = () => ({
      variantId: 39072999,
      productId: 632910999,
      price: '0.00',
      properties: [
        { name: '_svc_campaign_id', value: promo.campaignId },
        { name: '_svc_rule_id', value: promo.ruleIds[0] ?? '' },
        { name: '_svc_auto', value: 'true' },
      ],
    });

    it('feeds the order intake: a large id exact, prices in exact minor units, properties as attributes', async () => {
      const body = ordersPaidText({ customerId: 7001, totalPrice: '1234.57', lines: [{ price: '19.99', quantity: 3 }, giftLine(), { variantId: null, productId: null, price: '5.00' }] });
      const res = await deliver(t, body, { topic: 'orders/paid', domain });
      expect(res.json()).toEqual({ ok: true, duplicate: false });
      const stored = await storedOrder(shop.id, LARGE_ORDER_ID);
      expect(stored).toMatchObject({ id: LARGE_ORDER_ID, customerId: '7001', total: 123457, giftLines: 1, currency: 'USD', day: '2026-01-15' });
      expect(stored?.completedAt.toISOString()).toBe('2026-01-15T12:00:00.000Z');
      // The custom line (no variant) is not an order line; 19.99 is 1999, not 1998.9999….
      expect((stored?.payload as { lines: unknown[] }).lines).toEqual([
        { productId: '632910392', variantId: '39072856', quantity: 3, price: 1999, attributes: {} },
        {
          productId: '632910999',
          variantId: '39072999',
          quantity: 1,
          price: 0,
          attributes: { _svc_campaign_id: promo.campaignId, _svc_rule_id: promo.ruleIds[0], _svc_auto: 'true' },
        },
      ]);
      // JSON.parse alone would have recorded the rounded id, another order.
      expect(await storedOrder(shop.id, String(Number(LARGE_ORDER_ID)))).toBeUndefined();
    });

    it('is counted once in analytics and redemptions when delivered twice, under the same or another webhook id', async () => {
      const body = ordersPaidText({ id: '5550000000000000001', customerId: 7002, lines: [{}, giftLine()] });
      const before = await summary(shop);
      const first = await deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-twice' });
      const again = await deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-twice' });
      const otherId = await deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-twice-b' });
      expect([first.json(), again.json(), otherId.json()]).toEqual([
        { ok: true, duplicate: false },
        { ok: true, duplicate: true },
        { ok: true, duplicate: true },
      ]);
      // The admin route's intake agrees: the same id is already counted.
      expect((await postOrder(t, shop.id, order({ id: '5550000000000000001' }))).json()).toEqual({ ok: true, duplicate: true });
      const after = await summary(shop);
      expect(after.totalOrders - before.totalOrders).toBe(1);
      expect(after.totalGifts - before.totalGifts).toBe(1);
      expect(await redemptionCount(shop.id, '7002')).toBe(1);
    });

    it('processes two concurrent deliveries of one webhook id once', async () => {
      const body = ordersPaidText({ id: '5550000000000000002', customerId: 7003, lines: [giftLine()] });
      const answers = await Promise.all([1, 2, 3].map(() => deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-race' })));
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(answers.filter((res) => (res.json() as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
      expect(await redemptionCount(shop.id, '7003')).toBe(1);
    });

    it('keeps webhook ids and orders per shop: another shop\'s campaign ids count nothing, the same webhook id is its own there', async () => {
      const body = ordersPaidText({ id: '5550000000000000003', customerId: 7004, lines: [giftLine()] });
      expect((await deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-shared' })).json()).toEqual({ ok: true, duplicate: false });
      expect((await deliver(t, body, { topic: 'orders/paid', domain: otherDomain, webhookId: 'wh-shared' })).json()).toEqual({ ok: true, duplicate: false });
      expect(await storedOrder(other.id, '5550000000000000003')).toMatchObject({ giftLines: 0 });
      expect(await redemptionCount(other.id, '7004')).toBe(0);
      expect(await redemptionCount(shop.id, '7004')).toBe(1);
    });

    it('forgets delivery ids after the retention period', async () => {
      await deliver(t, ordersPaidText({ id: '5550000000000000004' }), { topic: 'orders/paid', domain, webhookId: 'wh-old' });
      expect(await pruneDeliveries(t.ctx.db, new Date(Date.now() + 60_000))).toBeGreaterThan(0);
      expect(await t.ctx.db.select().from(platformWebhookDeliveries).where(eq(platformWebhookDeliveries.webhookId, 'wh-old'))).toEqual([]);
      // The order itself is still counted once: its id is the order's own idempotency key.
      const again = await deliver(t, ordersPaidText({ id: '5550000000000000004' }), { topic: 'orders/paid', domain, webhookId: 'wh-old' });
      expect(again.json()).toEqual({ ok: true, duplicate: true });
    });
  });

  describe('never a 5xx', () => {
    const TOPICS = ['orders/paid', 'products/create', 'products/update', 'products/delete', 'inventory_levels/update', 'app/uninstalled'];
    const valid: Record<string, () => unknown> = {
      'orders/paid': () => JSON.parse(ordersPaidText({ id: '42' })),
      'products/create': () => productPayload({ id: 77 }),
      'products/update': () => productPayload({ id: 77 }),
      'products/delete': () => ({ id: 77 }),
      'inventory_levels/update': () => ({ inventory_item_id: 770_000, location_id: 1, available: 3 }),
      'app/uninstalled': () => ({ id: 1 }),
    };

    it('answers 200 or 400 to any signed payload of a handled topic, and to valid payloads with one field replaced', async () => {
      const replaced = fc
        .tuple(fc.constantFrom(...TOPICS), fc.string({ maxLength: 20 }), fc.jsonValue())
        .map(([topic, key, value]) => {
          const base = valid[topic]?.() as Record<string, unknown>;
          const keys = Object.keys(base);
          const field = keys.includes(key) ? key : (keys[key.length % keys.length] ?? 'id');
          return { topic, body: { ...base, [field]: value } as unknown };
        });
      const anything = fc.tuple(fc.constantFrom(...TOPICS), fc.jsonValue()).map(([topic, body]) => ({ topic, body }));
      await fc.assert(
        fc.asyncProperty(fc.oneof(replaced, anything), async ({ topic, body }) => {
          const res = await deliver(t, body, { topic, domain: otherDomain });
          expect([200, 400], `${topic} ${JSON.stringify(body).slice(0, 200)}: ${res.body}`).toContain(res.statusCode);
          expect(res.headers['content-type']).toMatch(/application\/json/);
        }),
        { numRuns: 150, seed: 20261123 },
      );
    });
  });

  describe('app/uninstalled', () => {
    it('disables the shop\'s live campaigns through the lifecycle transition, once', async () => {
      const shopC = await t.createShop('scale');
      const domainC = await domainOf(t, shopC.id);
      const live = await createGiftCampaign(t, shopC.id, 1);
      const draft = await createGiftCampaign(t, shopC.id, 1);
      await t.ctx.db.insert(webhookEndpoints).values({ shopId: shopC.id, id: 'whe_bye', url: 'https://hooks.example.com/bye', events: [], secret: 'whsec_dGVzdA==' });
      expect((await t.api(shopC, { method: 'POST', url: `/api/v1/campaigns/${live.campaignId}/enable?force=1` })).statusCode).toBe(200);
      const first = await deliver(t, { id: 1, domain: domainC }, { topic: 'app/uninstalled', domain: domainC, webhookId: 'wh-bye' });
      expect(first.json()).toEqual({ ok: true, duplicate: false });
      const read = async (id: string) => ((await t.api(shopC, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json() as { campaign: { enabled: boolean; isDraft: boolean } }).campaign;
      expect(await read(live.campaignId)).toMatchObject({ enabled: false, isDraft: false });
      expect(await read(draft.campaignId)).toMatchObject({ enabled: false, isDraft: true });
      const events = await t.ctx.db.select().from(outbox).where(eq(outbox.shopId, shopC.id));
      const deactivated = events.filter((row) => row.eventType === 'campaign.deactivated');
      expect(deactivated).toHaveLength(1);
      expect(JSON.stringify(deactivated[0]?.payload)).toContain(`"campaignId":"${live.campaignId}"`);
      expect(JSON.stringify(deactivated[0]?.payload)).toContain('"trigger":"admin"');
      const syncs = events.filter((row) => row.kind === 'discount_sync').map((row) => row.payload);
      expect(syncs).toContainEqual({ campaignId: live.campaignId, active: false });
      expect((await t.api(shopC, { method: 'GET', url: '/api/v1/rules' })).json()).toMatchObject({ rules: [] });
      const again = await deliver(t, { id: 1 }, { topic: 'app/uninstalled', domain: domainC, webhookId: 'wh-bye' });
      expect(again.json()).toEqual({ ok: true, duplicate: true });
      // The other shops' campaigns are untouched.
      expect(((await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${promo.campaignId}` })).json() as { campaign: { isDraft: boolean } }).campaign.isDraft).toBe(true);
    });
  });
});
