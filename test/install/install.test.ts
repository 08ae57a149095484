/**
 * Install by token exchange (CONTRACT part three; docs/install.md), through the app against the
 * stand-in platform, both stores: the first embedded load or session-token call of a platform
 * shop exchanges its token, creates the shop on Free with the platform's name, currency and
 * timezone, and queues the catalog import and the discount setup; bad tokens never reach the
 * platform; refused or failed exchanges leave nothing half-made; concurrent first loads install
 * once; a reinstall after `app/uninstalled` reconnects the same shop.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, outbox, platformConnections, shops } from '../../src/db/schema.ts';
import { deliver } from '../platform-webhooks/fixtures.ts';
import { createGiftCampaign } from '../orders/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import { testDbKind } from '../support/database.ts';
import { asMerchant, createInstallWorld, drain, embeddedLoad, SECRET, sessionToken } from './fixtures.ts';
import type { InstallWorld } from './fixtures.ts';

let world: InstallWorld;
beforeAll(async () => {
  world = await createInstallWorld();
});
afterAll(async () => {
  await world.t.close();
  await world.platform.close();
});

const shopRows = (domain: string) => world.t.ctx.db.select().from(shops).where(eq(shops.domain, domain));
const jobsOf = (shopId: string) => world.t.ctx.db.select({ kind: outbox.kind, payload: outbox.payload, status: outbox.status }).from(outbox).where(eq(outbox.shopId, shopId));
/** The shop's shared version (cache/shop-versions.ts): new after every change instances must see. */
const shopVersion = async (shopId: string) => {
  const versions = world.t.ctx.shopVersions;
  return versions.mode === 'off' ? undefined : await versions.read(shopId);
};
const exchangesFor = (domain: string) => world.platform.install.exchanges.filter((e) => e.shop === domain);

describe('the first embedded load of a platform shop', () => {
  it('exchanges the session token, creates the shop on Free with the platform\'s name, currency and timezone, and queues the import and the discount', async () => {
    const domain = 'acme-first.myshopify.com';
    world.platform.addShop({ domain, name: 'Acme Outfitters', currencyCode: 'EUR', ianaTimezone: 'Europe/Paris' });
    const res = await embeddedLoad(world, domain, sessionToken(domain));
    expect(res.statusCode, res.body).toBe(200);
    expect(exchangesFor(domain).map((e) => e.status)).toEqual([200]);
    const [row] = await shopRows(domain);
    expect(row).toMatchObject({ plan: 'free', currency: 'EUR', timezone: 'Europe/Paris', name: 'Acme Outfitters' });
    // The token the platform issued is the one stored (sealed), and the admin shows the shop connected.
    const shop = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${row?.id}` })).json() as { shop: Record<string, unknown> };
    expect(shop.shop).toMatchObject({ domain, name: 'Acme Outfitters', plan: 'free' });
    const status = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${row?.id}/platform-connection` })).json() as Record<string, unknown>;
    expect(status).toMatchObject({ connected: true, broken: false });
    expect((await jobsOf(row?.id ?? '')).map((j) => [j.kind, j.payload]).sort()).toEqual([
      ['catalog_import', { importId: expect.stringMatching(/^imp_/) }],
      ['discount_sync', { setup: true }],
    ]);
    // The page is the app, framed by the shop's admin.
    expect(String(res.headers['content-security-policy'])).toContain('https://admin.shopify.com');
  });

  it('a session-token API call of a new shop installs it too, and the jobs create the discount with its configuration', async () => {
    const domain = 'beta-api.myshopify.com';
    world.platform.addShop({ domain, name: 'Beta', currencyCode: 'CAD', ianaTimezone: 'America/Toronto' });
    world.platform.catalog.seed(domain, 3);
    const res = await asMerchant(world, sessionToken(domain));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { shop: Record<string, unknown> }).shop).toMatchObject({ domain, plan: 'free', currency: 'CAD', timezone: 'America/Toronto', name: 'Beta' });
    await drain(world);
    const [discount] = world.platform.discounts.discounts.get(domain) ?? [];
    expect(discount).toMatchObject({ title: 'Gift with purchase', functionId: 'fn-gifts-install', discountClasses: ['PRODUCT'] });
    const [row] = await shopRows(domain);
    const config = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${row?.id}/checkout-config` })).json() as { checkoutConfig: Record<string, unknown> };
    expect(config.checkoutConfig).toMatchObject({ target: 'platform', platformDiscountId: discount?.id, lastError: null });
    expect(world.platform.discounts.metafields.get(domain)?.get(`${discount?.id} $app:gifts.config`)).toBeDefined();
    // A second call is signed in without another exchange.
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    expect(exchangesFor(domain)).toHaveLength(1);
  });
});

describe('bad tokens and refused exchanges', () => {
  it('a forged, expired or other-app token never reaches the platform: 401 JSON for the API, a readable 401 page for the load, no shop', async () => {
    const domain = 'gamma-bad.myshopify.com';
    world.platform.addShop({ domain });
    const forged = sessionToken(domain, {}, 'not-the-app-secret');
    const expired = sessionToken(domain, { exp: Math.floor(Date.now() / 1000) - 30 });
    const otherApp = sessionToken(domain, { aud: 'another-app' });
    const before = world.platform.install.exchanges.length;
    for (const token of [forged, expired, otherApp]) {
      const api = await asMerchant(world, token);
      expect(api.statusCode).toBe(401);
      expect(api.json()).toMatchObject({ error: 'Unauthorized', code: 'unauthorized' });
      const page = await embeddedLoad(world, domain, token);
      expect(page.statusCode).toBe(401);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('Open the app again');
    }
    expect(world.platform.install.exchanges.length).toBe(before);
    expect(await shopRows(domain)).toEqual([]);

    // An installed shop's reload carries a stale id_token: the page loads as before, still with no exchange.
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    const reload = await embeddedLoad(world, domain, expired);
    expect(reload.statusCode).toBe(200);
    expect(world.platform.install.exchanges.length).toBe(before + 1);
  });

  it('an exchange the platform refuses (invalid_subject_token, invalid_client) leaves no shop and says why', async () => {
    const unknown = 'ghost-store.myshopify.com'; // a store the platform does not have
    const api = await asMerchant(world, sessionToken(unknown));
    expect(api.statusCode).toBe(401);
    expect((api.json() as { issue: string }).issue).toMatch(/invalid_subject_token/);
    const page = await embeddedLoad(world, unknown, sessionToken(unknown));
    expect([page.statusCode, page.body.includes('The platform refused to install the app')]).toEqual([401, true]);
    expect(String(page.headers['content-security-policy'])).toContain(`https://${unknown}`);
    expect(await shopRows(unknown)).toEqual([]);

    // The app's own credentials wrong (another client id with this secret): invalid_client.
    const wrongApp = await createTestApp({ PLATFORM_APP_KEY: 'not-the-client-id', PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: world.platform.url });
    try {
      const domain = 'delta-client.myshopify.com';
      world.platform.addShop({ domain });
      const res = await wrongApp.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { authorization: `Bearer ${sessionToken(domain, {}, SECRET, 'not-the-client-id')}` } });
      expect(res.statusCode).toBe(401);
      expect((res.json() as { issue: string }).issue).toMatch(/invalid_client/);
      expect(await wrongApp.ctx.db.select().from(shops).where(eq(shops.domain, domain))).toEqual([]);
    } finally {
      await wrongApp.close();
    }
  });

  it('a platform that is down, throttles, or answers the shop query with errors or a missing field: never a 5xx, nothing half-made, and the next load installs', async () => {
    const domain = 'epsilon-flaky.myshopify.com';
    world.platform.addShop({ domain, currencyCode: 'GBP' });
    world.platform.install.exchangeFaults.inject({ kind: 'outage', status: 503 });
    const down = await asMerchant(world, sessionToken(domain));
    expect([down.statusCode, (down.json() as { code: string }).code]).toEqual([409, 'conflict']);

    world.platform.install.exchangeFaults.inject({ kind: 'throttled', retryAfterSeconds: 3 });
    const throttled = await asMerchant(world, sessionToken(domain));
    expect([throttled.statusCode, throttled.headers['retry-after']]).toEqual([429, '3']);

    world.platform.install.faults.inject({ kind: 'errors', message: 'Internal error' });
    const errors = await embeddedLoad(world, domain, sessionToken(domain));
    expect(errors.statusCode).toBe(409);
    expect(errors.body).toContain('could not be installed yet');

    world.platform.install.faults.inject({ kind: 'missing', path: ['shop', 'currencyCode'] });
    const missing = await asMerchant(world, sessionToken(domain));
    expect(missing.statusCode).toBe(409);
    expect((missing.json() as { issue: string }).issue).toMatch(/not what the schema says/);

    world.platform.install.faults.inject({ kind: 'throttled', retryAfterSeconds: 2 });
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(429);
    expect(await shopRows(domain)).toEqual([]);

    const ok = await asMerchant(world, sessionToken(domain));
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await shopRows(domain)).map((r) => r.currency)).toEqual(['GBP']);
  });
});

describe('concurrency and reinstall', () => {
  it('five first loads at once install once', async () => {
    const domain = 'zeta-rush.myshopify.com';
    world.platform.addShop({ domain });
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () => asMerchant(world, sessionToken(domain))),
      ...Array.from({ length: 2 }, () => embeddedLoad(world, domain, sessionToken(domain))),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(exchangesFor(domain)).toHaveLength(1);
    const rows = await shopRows(domain);
    expect(rows).toHaveLength(1);
    expect((await jobsOf(rows[0]?.id ?? '')).filter((j) => j.kind === 'catalog_import')).toHaveLength(1);
  });

  it('after app/uninstalled a new load reconnects the same shop with its data; a refused reinstall leaves the broken connection as it was', async () => {
    const domain = 'eta-again.myshopify.com';
    world.platform.addShop({ domain, name: 'Eta' });
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    const [first] = await shopRows(domain);
    const shopId = first?.id ?? '';
    await createGiftCampaign(world.t, shopId, 1);
    const gone = await deliver(world.t, { id: 1, domain }, { topic: 'app/uninstalled', domain, secret: SECRET, webhookId: `wh-uninstall-${domain}` });
    expect(gone.statusCode).toBe(200);
    expect(await world.t.ctx.db.select().from(platformConnections).where(eq(platformConnections.shopId, shopId))).toEqual([]);

    world.platform.shops.get(domain)?.accessTokens.clear();
    const res = await asMerchant(world, sessionToken(domain));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { shop: { id: string } }).shop.id).toBe(shopId);
    expect(exchangesFor(domain)).toHaveLength(2);
    expect(await world.t.ctx.db.select().from(campaigns).where(eq(campaigns.shopId, shopId))).toHaveLength(1);
    expect(await shopRows(domain)).toHaveLength(1);

    // The platform revokes the new token: the connection is marked broken; a refused exchange then keeps it as it was.
    const [connection] = await world.t.ctx.db.select().from(platformConnections).where(eq(platformConnections.shopId, shopId));
    await world.t.ctx.db.update(platformConnections).set({ brokenAt: new Date(), brokenReason: 'refused (401)' }).where(eq(platformConnections.shopId, shopId));
    const refused = await asMerchant(world, sessionToken(domain, { dest: `https://${domain}` }, SECRET));
    expect(refused.statusCode).toBe(200); // the platform still knows the shop: reconnected again
    world.platform.shops.delete(domain); // now the platform refuses (the store is gone)
    await world.t.ctx.db.update(platformConnections).set({ brokenAt: new Date(), brokenReason: 'refused (401)' }).where(eq(platformConnections.shopId, shopId));
    const [brokenBefore] = await world.t.ctx.db.select().from(platformConnections).where(eq(platformConnections.shopId, shopId));
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(401);
    const [after] = await world.t.ctx.db.select().from(platformConnections).where(and(eq(platformConnections.shopId, shopId)));
    expect(after).toEqual(brokenBefore);
    expect(after?.sealedToken).not.toBe(connection?.sealedToken);
  });

  // Shared versions live in Redis beside PostgreSQL (on PGlite, in the process): PostgreSQL alone keeps none to compare.
  it.skipIf(testDbKind() === 'postgres' && !process.env.TEST_REDIS_URL)('a reinstall tells every instance after its commit: the renamed shop gets a new shared version', async () => {
    const domain = 'theta-renamed.myshopify.com';
    world.platform.addShop({ domain, name: 'Theta' });
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    const [first] = await shopRows(domain);
    const shopId = first?.id ?? '';
    const gone = await deliver(world.t, { id: 1, domain }, { topic: 'app/uninstalled', domain, secret: SECRET, webhookId: `wh-uninstall-${domain}` });
    expect(gone.statusCode).toBe(200);
    const before = await shopVersion(shopId);
    expect(before).toEqual(expect.any(String));

    const platformShop = world.platform.shops.get(domain);
    if (platformShop) platformShop.name = 'Theta Renamed';
    const res = await asMerchant(world, sessionToken(domain));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { shop: { id: string; name: string } }).shop).toMatchObject({ id: shopId, name: 'Theta Renamed' });
    expect(await shopVersion(shopId)).not.toBe(before);
    // A load of a connected shop installs nothing and changes nothing.
    const settled = await shopVersion(shopId);
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    expect(await shopVersion(shopId)).toBe(settled);
  });
});
