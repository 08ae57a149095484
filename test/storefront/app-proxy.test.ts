/**
 * `/proxy/*` (CONTRACT "Storefront", 1.): requests the platform forwards from
 * `https://<shop>/apps/gifts/*`, signed with PLATFORM_APP_SECRET. Happy, error and
 * cross-shop cases through the app, on the project's databases.
 */
import { compileRules, evaluateRules } from '@gcrs/engine';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefrontEvents } from '../../src/db/schema.ts';
import { signAppProxyQuery } from '../../src/platform/signatures.ts';
import { DEFAULT_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { rule } from '../campaigns/fixtures.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { APP_SECRET, createDomainShop, createLiveCampaign, proxied } from './helpers.ts';
import type { StorefrontShop } from './helpers.ts';

let t: TestApp;
let shop: StorefrontShop;
let other: StorefrontShop;
let promo: { campaignId: string; ruleIds: string[] };
let otherPromo: { campaignId: string; ruleIds: string[] };
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: APP_SECRET });
  [shop, other] = await Promise.all([createDomainShop(t, 'pro'), createDomainShop(t, 'scale')]);
  promo = await createLiveCampaign(t, shop.id, [rule('Spend 50'), rule('Summer', { type: 'line.in_collection', value: 'summer' })]);
  otherPromo = await createLiveCampaign(t, other.id, [rule('Other shop rule')]);
});
afterAll(() => t.close());

describe('GET /proxy/rules', () => {
  it("serves the shop's rules payload, with the ETag/304 and Cache-Control of GET /rules", async () => {
    const res = await proxied(t, shop, 'rules');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(res.headers['ratelimit-policy']).toBe('"storefront";q=120;w=60');
    const payload = res.json();
    expect(payload.rules.map((r: { id: string }) => r.id)).toEqual(promo.ruleIds);
    expect(payload.debugAllowed).toBe(false);
    expect(Object.keys(payload)).toEqual(['rules', 'debugAllowed', 'shopSettings', 'widgets', 'baseCurrency', 'collections', 'giftTitles', 'giftPrices']);

    const again = await proxied(t, shop, 'rules', { headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The storefront variant has its own tag: an API copy is not this representation.
    const api = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/rules` });
    expect(api.headers.etag).not.toBe(res.headers.etag);
  });

  it("never serves another shop's rules: the shop is the signed `shop`", async () => {
    const res = await proxied(t, other, 'rules');
    expect(res.json().rules.map((r: { id: string }) => r.id)).toEqual(otherPromo.ruleIds);
    // A request signed for `shop` with `other`'s domain pasted in does not verify.
    const signed = signAppProxyQuery('', { shop: shop.domain }, APP_SECRET).replace(encodeURIComponent(shop.domain), encodeURIComponent(other.domain));
    const forged = await t.app.inject({ method: 'GET', url: `/proxy/rules?${signed}` });
    expect(forged.statusCode).toBe(401);
  });

  it('maps each collection the live rules name (handle, numeric id, gid) to its product gids', async () => {
    const catalog = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/catalog`,
      payload: {
        products: [],
        collections: [
          { id: 'gid://shopify/Collection/77', handle: 'summer', productIds: ['gid://shopify/Product/1', 'gid://shopify/Product/2'] },
          { id: 'gid://shopify/Collection/78', handle: 'winter', productIds: ['gid://shopify/Product/3'] },
        ],
      },
    });
    expect(catalog.statusCode, catalog.body).toBe(200);
    const products = ['gid://shopify/Product/1', 'gid://shopify/Product/2'];
    const res = await proxied(t, shop, 'rules');
    expect(res.json().collections).toEqual({ summer: products, '77': products, 'gid://shopify/Collection/77': products });

    // What a storefront does with it: the engine matches `line.in_collection` from the map alone.
    const payload = res.json();
    const compiled = compileRules(payload);
    const line = (productId: string) => ({ productId, variantId: '9', quantity: 1, price: 100 });
    const summerRule = promo.ruleIds[1] ?? '';
    const matched = (productId: string) =>
      evaluateRules(compiled, { cart: { currency: 'USD', lines: [line(productId)] }, collections: payload.collections }).find((r) => r.ruleId === summerRule)?.matched;
    expect(matched('gid://shopify/Product/2')).toBe(true);
    expect(matched('gid://shopify/Product/3')).toBe(false);
  });

  it('strips customCode below Scale and keeps it on Scale', async () => {
    const widgets = { ...DEFAULT_WIDGET_DOCUMENT, customCode: { html: '<div id="x"></div>', css: '#x{}', js: 'console.log(1)' } };
    for (const target of [shop, other]) {
      const put = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${target.id}/widgets`, payload: widgets });
      expect(put.statusCode, put.body).toBe(200);
    }
    const pro = (await proxied(t, shop, 'rules')).json().widgets;
    expect('customCode' in pro).toBe(false);
    expect(pro.toast).toEqual(widgets.toast);
    expect((await proxied(t, other, 'rules')).json().widgets.customCode).toEqual(widgets.customCode);
  });

  it('sets debugAllowed from the shop setting storefront.debug (default false)', async () => {
    const patched = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { storefront: { debug: true } } } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().shop.settings.storefront).toEqual({ debug: true });
    expect((await proxied(t, shop, 'rules')).json().debugAllowed).toBe(true);
    await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { storefront: { debug: false } } } });
    expect((await proxied(t, shop, 'rules')).json().debugAllowed).toBe(false);
    const bad = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { storefront: { debug: 'yes' } } } });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps the shopper\'s own parameters in the signature, repeated ones joined as the platform does', async () => {
    const res = await proxied(t, shop, 'rules', { query: 'ids=1&ids=2&q=a%20b' });
    expect(res.statusCode, res.body).toBe(200);
    const signed = signAppProxyQuery('ids=1&ids=2', { shop: shop.domain }, APP_SECRET);
    const reordered = await t.app.inject({ method: 'GET', url: `/proxy/rules?${signed.replace('ids=1&ids=2', 'ids=2&ids=1')}` });
    expect(reordered.statusCode).toBe(401);
  });
});

describe('signature errors', () => {
  const unauthorized = (issue: string) => ({ ...errorBody('Unauthorized', 'unauthorized'), issue });

  it('answers 401 for a missing signature', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/proxy/rules?shop=${shop.domain}&timestamp=${now()}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthorized('The app-proxy signature is missing'));
  });

  it('answers 401 for a wrong signature (another secret)', async () => {
    const res = await proxied(t, shop, 'rules', { secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthorized('The app-proxy signature does not match the query'));
  });

  it('answers 401 for a stale or future timestamp (more than 300 s away)', async () => {
    for (const timestamp of [now() - 301, now() + 301, 0]) {
      const res = await proxied(t, shop, 'rules', { timestamp });
      expect(res.statusCode, String(timestamp)).toBe(401);
      expect(res.json()).toEqual(unauthorized('The app-proxy timestamp is more than 300 s away from now'));
    }
    expect((await proxied(t, shop, 'rules', { timestamp: now() - 250 })).statusCode).toBe(200);
  });

  it('answers 404 Shop not found for a signed request naming a shop the service does not serve', async () => {
    const res = await proxied(t, { domain: 'unknown-shop.myshopify.com' }, 'rules');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Shop not found', 'not_found'));
  });

  it('reads nothing of an unsigned request: errors before the body is validated', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/proxy/events?shop=${shop.domain}`, payload: { nonsense: true } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /proxy/events', () => {
  it('ingests with the API\'s schema and answers, storing the events for the signed shop only', async () => {
    const event = (type: string, campaignId: string, ruleId: string | undefined) => ({ type, campaignId, ruleId, variantId: 'gid://shopify/ProductVariant/1' });
    const res = await proxied(t, shop, 'events', {
      method: 'POST',
      payload: {
        events: [
          event('gift_added', promo.campaignId, promo.ruleIds[0]),
          event('choice_shown', promo.campaignId, promo.ruleIds[1]),
          // Another shop's rule is dropped, as on the API.
          event('gift_added', otherPromo.campaignId, otherPromo.ruleIds[0]),
        ],
        visitorId: 'v-1',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 2 });
    const stored = await t.ctx.db.select().from(storefrontEvents).where(eq(storefrontEvents.shopId, shop.id));
    expect(stored.map((row) => row.type).sort()).toEqual(['choice_shown', 'gift_added']);
    const leaked = await t.ctx.db
      .select()
      .from(storefrontEvents)
      .where(and(eq(storefrontEvents.shopId, other.id), eq(storefrontEvents.campaignId, otherPromo.campaignId)));
    expect(leaked).toEqual([]);
  });

  it('stores the signed customer, never the one the body claims', async () => {
    const payload = (visitorId: string) => ({
      events: [{ type: 'gift_added', campaignId: promo.campaignId, ruleId: promo.ruleIds[0], variantId: 'gid://shopify/ProductVariant/1' }],
      customerId: '43',
      visitorId,
    });
    expect((await proxied(t, shop, 'events', { method: 'POST', customer: '42', payload: payload('signed') })).json()).toEqual({ ok: true, count: 1 });
    expect((await proxied(t, shop, 'events', { method: 'POST', payload: payload('anonymous') })).json()).toEqual({ ok: true, count: 1 });
    const stored = await t.ctx.db.select().from(storefrontEvents).where(eq(storefrontEvents.shopId, shop.id));
    const customerOf = (visitorId: string) => stored.find((row) => row.visitorId === visitorId)?.context?.customerId;
    expect(customerOf('signed')).toBe('42');
    expect(customerOf('anonymous')).toBeUndefined();
  });

  it('answers 400 with the API\'s error body for a bad batch', async () => {
    const res = await proxied(t, shop, 'events', { method: 'POST', payload: { events: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid events body', path: ['events'] });
  });
});

describe('GET /proxy/redemptions', () => {
  beforeAll(async () => {
    const gift = { gift: { campaignId: promo.campaignId, ruleId: promo.ruleIds[0] } };
    for (const customerId of ['42', '42', '43']) {
      const res = await postOrder(t, shop.id, order({ customerId, lines: [gift] }));
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("lists the signed customer's own records only", async () => {
    const res = await proxied(t, shop, 'redemptions', { customer: '42', query: 'customerId=43' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=30');
    expect(res.json()).toEqual({
      redemptions: [{ ruleId: promo.ruleIds[0], campaignId: promo.campaignId, count: 2, lastRedeemedAt: expect.any(String) }],
    });
    expect((await proxied(t, shop, 'redemptions', { customer: '43' })).json().redemptions[0].count).toBe(1);
  });

  it('answers an empty list to an anonymous shopper, and to the same customer id in another shop', async () => {
    expect((await proxied(t, shop, 'redemptions')).json()).toEqual({ redemptions: [] });
    expect((await proxied(t, other, 'redemptions', { customer: '42' })).json()).toEqual({ redemptions: [] });
  });
});

describe('without PLATFORM_APP_SECRET', () => {
  it('answers 404 like an unknown route; the old name PLATFORM_WEBHOOK_SECRET still enables it', async () => {
    const bare = await createTestApp({}, { database: t.ctx.database });
    try {
      const res = await proxied(bare, shop, 'rules');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Route not found', 'not_found'));
    } finally {
      await bare.app.close();
      await bare.ctx.close();
    }
    const aliased = await createTestApp({ PLATFORM_WEBHOOK_SECRET: APP_SECRET }, { database: t.ctx.database });
    try {
      expect((await proxied(aliased, shop, 'rules')).statusCode).toBe(200);
    } finally {
      await aliased.app.close();
      await aliased.ctx.close();
    }
  });
});
