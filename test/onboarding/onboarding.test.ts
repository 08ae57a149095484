/**
 * The getting-started checklist (docs/merchant-admin.md "Getting started"): each step is done
 * only when the service has seen it (a connection, the storefront's first app-proxy request, a
 * live campaign, a gift added or ordered), per shop, on the admin API and the merchant's mount;
 * dismissing hides it for that shop only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markConnectionBroken } from '../../src/platform/connections.ts';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import { openLoginLink } from '../support/login-link.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { APP_SECRET, createDomainShop, proxied } from '../storefront/helpers.ts';
import type { StorefrontShop } from '../storefront/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: APP_SECRET, PLATFORM_APP_KEY: 'app-key-1' });
});
afterAll(() => t.close());

type Onboarding = { steps: Array<{ key: string; done: boolean }>; complete: boolean; dismissed: boolean; embedUrl: string | null };
const read = async (shop: StorefrontShop): Promise<Onboarding> => {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/onboarding` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { onboarding: Onboarding }).onboarding;
};
const done = async (shop: StorefrontShop) => (await read(shop)).steps.filter((step) => step.done).map((step) => step.key);

describe('GET /onboarding', () => {
  it('starts with nothing done and the theme editor link of the app embed', async () => {
    const shop = await createDomainShop(t);
    expect(await read(shop)).toEqual({
      steps: [
        { key: 'connect', done: false },
        { key: 'embed', done: false },
        { key: 'campaign', done: false },
        { key: 'gift', done: false },
      ],
      complete: false,
      dismissed: false,
      embedUrl: `https://${shop.domain}/admin/themes/current/editor?context=apps&activateAppId=app-key-1/gift-embed`,
    });
  });

  it('ticks each step as the service sees it, and only for its shop', async () => {
    const shop = await createDomainShop(t);
    const other = await createDomainShop(t);

    const connect = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/platform-connection`, payload: { accessToken: 'shpat_0123456789abcdef' } });
    expect(connect.statusCode, connect.body).toBe(200);
    expect(await done(shop)).toEqual(['connect']);

    // The storefront script's first request through the app proxy: the embed is on.
    expect((await proxied(t, shop, 'rules')).statusCode).toBe(200);
    expect(await done(shop)).toEqual(['connect', 'embed']);

    // A draft is not a campaign a shopper meets; an enabled one is.
    const gift = await createGiftCampaign(t, shop.id);
    expect(await done(shop)).toEqual(['connect', 'embed']);
    expect((await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/${gift.campaignId}/enable?force=1` })).statusCode).toBe(200);
    expect(await done(shop)).toEqual(['connect', 'embed', 'campaign']);

    const event = { type: 'gift_added', campaignId: gift.campaignId, ruleId: gift.ruleIds[0], variantId: 'gid://shopify/ProductVariant/1' };
    expect((await proxied(t, shop, 'events', { method: 'POST', payload: { events: [event] } })).statusCode).toBe(200);
    expect(await read(shop)).toMatchObject({ complete: true, dismissed: false });

    expect(await done(other)).toEqual([]);
  });

  it('counts an order with a gift as the first gift seen, without any storefront event', async () => {
    const shop = await createDomainShop(t);
    const gift = await createGiftCampaign(t, shop.id);
    expect((await postOrder(t, shop.id, order({ lines: [{}] }))).statusCode).toBe(200);
    expect(await done(shop)).toEqual([]);
    expect((await postOrder(t, shop.id, order({ lines: [{}, { gift: { campaignId: gift.campaignId, ruleId: gift.ruleIds[0] } }] }))).statusCode).toBe(200);
    expect(await done(shop)).toEqual(['gift']);
  });

  it('a broken connection is not connected', async () => {
    const shop = await createDomainShop(t);
    await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/platform-connection`, payload: { accessToken: 'shpat_0123456789abcdef' } });
    await markConnectionBroken(t.ctx.db, shop.id, 'revoked');
    expect(await done(shop)).toEqual([]);
  });

  it('an unsigned proxy request proves nothing', async () => {
    const shop = await createDomainShop(t);
    expect((await proxied(t, shop, 'rules', { secret: 'not-the-secret' })).statusCode).toBe(401);
    expect(await done(shop)).toEqual([]);
  });

  it('answers 404 for an unknown shop and 401 without the admin token', async () => {
    expect((await t.admin({ method: 'GET', url: '/admin/v1/shops/shp_nope/onboarding' })).statusCode).toBe(404);
    const shop = await createDomainShop(t);
    expect((await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/onboarding` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/onboarding' })).statusCode).toBe(401);
  });
});

describe('POST /onboarding/dismiss', () => {
  it("hides the merchant's own checklist through the app's session, and no other shop's", async () => {
    const shop = await createDomainShop(t);
    const other = await createDomainShop(t);
    const link = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/login-links` });
    const opened = await openLoginLink(t.app, (link.json() as { url: string }).url);
    const cookie = String(opened.headers['set-cookie']).split(';')[0] ?? '';
    const session = await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } });
    const headers = { cookie, 'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken };

    // Without the CSRF token a cookie session changes nothing.
    expect((await t.app.inject({ method: 'POST', url: '/app/api/v1/onboarding/dismiss', headers: { cookie } })).statusCode).toBe(403);
    expect((await read(shop)).dismissed).toBe(false);

    const dismissed = await t.app.inject({ method: 'POST', url: '/app/api/v1/onboarding/dismiss', headers });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((dismissed.json() as { onboarding: Onboarding }).onboarding).toMatchObject({ dismissed: true, complete: false });
    expect((await t.app.inject({ method: 'POST', url: '/app/api/v1/onboarding/dismiss', headers })).statusCode).toBe(200);
    const mine = await t.app.inject({ method: 'GET', url: '/app/api/v1/onboarding', headers: { cookie } });
    expect((mine.json() as { onboarding: Onboarding }).onboarding.dismissed).toBe(true);
    expect((await read(other)).dismissed).toBe(false);
  });
});

describe('without PLATFORM_APP_KEY', () => {
  it('has no theme editor link', async () => {
    const bare = await createTestApp();
    try {
      const shop = await bare.createShop('free');
      const res = await bare.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/onboarding` });
      expect((res.json() as { onboarding: Onboarding }).onboarding.embedUrl).toBeNull();
    } finally {
      await bare.close();
    }
  });
});
