/**
 * A shop's platform connection and the checkout configuration the discount sync writes
 * (docs/checkout-function.md "Platform connection"), through the app: the admin routes never
 * show the token, the token is sealed at rest, a connected shop's sync reaches the stand-in
 * platform's Admin GraphQL endpoint (PLATFORM_ADMIN_API_URL) while another shop's is recorded,
 * a 401 marks the connection broken, and `app/uninstalled` forgets the token. Both stores.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutConfigs, outbox, platformConnections } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { markConnectionBroken, openToken, sealToken } from '../../src/platform/connections.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { createShopDiscountPort } from '../../src/platform/shop-discount-port.ts';
import { createGiftCampaign } from '../orders/fixtures.ts';
import { deliver, domainOf } from '../platform-webhooks/fixtures.ts';
import { errorBody } from '../support/error-body.ts';
import { discountIdOf, grantToken, revokeToken, startTestPlatform } from '../support/platform-standin.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

const SECRET = 'platform-app-secret-for-connection-tests';
const TOKEN_A = `shpat_${'a1'.repeat(16)}`;
const TOKEN_A2 = `shpat_${'b2'.repeat(16)}`;
const TOKEN_B = `shpca_${'c3'.repeat(16)}`;

let t: TestApp;
let platform: PlatformStandin;
let domainA = '';
let shop: TestShop;
let other: TestShop;
const lines: string[] = [];
/** How far the dispatcher's clock runs ahead, to make a retry due. */
let ahead = 0;

beforeAll(async () => {
  platform = await startTestPlatform(SECRET);
  t = await createTestApp(
    { PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: platform.url, PLATFORM_DISCOUNT_FUNCTION_ID: 'fn-gifts-1', LOG_LEVEL: 'trace' },
    { logDestination: { write: (chunk: string) => void lines.push(chunk) } },
  );
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  domainA = await domainOf(t, shop.id);
  grantToken(platform, domainA, TOKEN_A);
  grantToken(platform, domainA, TOKEN_A2);
  grantToken(platform, await domainOf(t, other.id), TOKEN_B);
});
afterAll(async () => {
  await t.close();
  await platform.close();
});

const url = (s: TestShop, path: string) => `/admin/v1/shops/${s.id}${path}`;
const connect = (s: TestShop, payload: unknown) => t.admin({ method: 'PUT', url: url(s, '/platform-connection'), payload: payload as Record<string, unknown> });
const status = async (s: TestShop) => (await t.admin({ method: 'GET', url: url(s, '/platform-connection') })).json() as Record<string, unknown>;
const checkoutConfig = (s: TestShop) => t.admin({ method: 'GET', url: url(s, '/checkout-config') });

function dispatcher() {
  const { config } = t.ctx;
  const port = createShopDiscountPort({
    db: t.ctx.db,
    logger: t.ctx.logger,
    secret: config.platformAppSecret,
    functionId: config.platformDiscountFunctionId,
    adminApiUrl: config.platformAdminApiUrl,
  });
  return createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20, now: () => new Date(Date.now() + ahead) });
}

describe('PUT/GET/DELETE /admin/v1/shops/:shopId/platform-connection', () => {
  it('connects, never shows the token, and disconnects', async () => {
    const put = await connect(shop, { accessToken: TOKEN_A });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ connected: true, connectedAt: expect.any(String), broken: false, brokenAt: null, brokenReason: null });
    expect(await status(shop)).toMatchObject({ connected: true, broken: false });
    const shopRes = await t.admin({ method: 'GET', url: url(shop, '') });
    for (const body of [put.body, JSON.stringify(await status(shop)), shopRes.body]) expect(body).not.toContain(TOKEN_A.slice(6));
    // The shop object carries CONTRACT's `platform: { connected, connectedAt, brokenAt }`; the other shop's is its own.
    const connectedAt = (put.json() as { connectedAt: string }).connectedAt;
    expect((shopRes.json() as { shop: { platform: unknown } }).shop.platform).toEqual({ connected: true, connectedAt, brokenAt: null });
    expect((await t.admin({ method: 'GET', url: url(other, '') })).json()).toMatchObject({ shop: { platform: { connected: false, connectedAt: null, brokenAt: null } } });
    await markConnectionBroken(t.ctx.db, shop.id, 'The platform refused the token (401)', new Date('2026-01-02T03:04:05Z'));
    expect((await t.admin({ method: 'GET', url: url(shop, '') })).json()).toMatchObject({ shop: { platform: { connected: true, connectedAt, brokenAt: '2026-01-02T03:04:05.000Z' } } });

    expect((await t.admin({ method: 'DELETE', url: url(shop, '/platform-connection') })).json()).toMatchObject({ connected: false, connectedAt: null });
    expect(await status(shop)).toMatchObject({ connected: false });
    const again = await t.admin({ method: 'DELETE', url: url(shop, '/platform-connection') });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(errorBody('Platform connection not found', 'not_found'));
  });

  it('seals the token at rest: the row holds no token, and it opens only for its shop with the secret', async () => {
    expect((await connect(shop, { accessToken: TOKEN_A })).statusCode).toBe(200);
    const [row] = await t.ctx.db.select().from(platformConnections).where(eq(platformConnections.shopId, shop.id));
    expect(row?.sealedToken).toMatch(/^v1\./);
    expect(row?.sealedToken).not.toContain(TOKEN_A.slice(6, 20));
    expect(openToken(SECRET, shop.id, row?.sealedToken ?? '')).toBe(TOKEN_A);
    expect(openToken(SECRET, other.id, row?.sealedToken ?? '')).toBeUndefined();
    expect(openToken('another-secret-entirely', shop.id, row?.sealedToken ?? '')).toBeUndefined();
  });

  it('answers 400 with a JSON error to bad bodies', async () => {
    const bad: unknown[] = [{}, { accessToken: '' }, { accessToken: 'short' }, { accessToken: 'shpat_ has spaces 0123456789' }, { accessToken: 42 }, { accessToken: TOKEN_B, extra: 1 }, [TOKEN_B], null];
    for (const payload of bad) {
      const res = await connect(other, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(/^Invalid (platform connection body|request body)/);
    }
    const notJson = await t.admin({ method: 'PUT', url: url(other, '/platform-connection'), headers: { 'content-type': 'application/json' }, payload: '{"accessToken":' });
    expect(notJson.statusCode).toBe(400);
    expect(await status(other)).toMatchObject({ connected: false });
  });

  it('keeps shops apart: one shop\'s connection is not another\'s, and an unknown shop is 404', async () => {
    expect((await connect(shop, { accessToken: TOKEN_A })).statusCode).toBe(200);
    expect(await status(other)).toMatchObject({ connected: false });
    expect((await t.admin({ method: 'DELETE', url: url(other, '/platform-connection') })).statusCode).toBe(404);
    expect(await status(shop)).toMatchObject({ connected: true });
    const unknown = await t.admin({ method: 'GET', url: '/admin/v1/shops/shp_unknown000000000/platform-connection' });
    expect(unknown.json()).toEqual(errorBody('Shop not found', 'not_found'));
  });

  it('does not exist without PLATFORM_APP_SECRET (404 like unknown routes); checkout-config does', async () => {
    const bare = await createTestApp();
    try {
      const s = await bare.createShop('scale');
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await bare.admin({ method, url: `/admin/v1/shops/${s.id}/platform-connection`, ...(method === 'PUT' ? { payload: { accessToken: TOKEN_A } } : {}) });
        expect(res.statusCode, method).toBe(404);
      }
      expect((await bare.admin({ method: 'GET', url: `/admin/v1/shops/${s.id}/checkout-config` })).statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('the discount sync per shop, and GET /admin/v1/shops/:shopId/checkout-config', () => {
  it('answers 404 before any sync', async () => {
    const res = await checkoutConfig(other);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Checkout configuration not found', 'not_found'));
  });

  it('writes a connected shop\'s configuration to the platform and records an unconnected shop\'s', async () => {
    expect((await connect(shop, { accessToken: TOKEN_A })).statusCode).toBe(200);
    const mine = await createGiftCampaign(t, shop.id, 2);
    const theirs = await createGiftCampaign(t, other.id, 1);
    for (const [s, c] of [[shop, mine], [other, theirs]] as const) {
      expect((await t.admin({ method: 'POST', url: url(s, `/campaigns/${c.campaignId}/enable?force=1`) })).statusCode).toBe(200);
    }
    const worker = dispatcher();
    await worker.runOnce();

    // First time: find (none) then create with both metafields, at the shop's Admin API path.
    const sentA = platform.requests.filter((r) => r.token === TOKEN_A);
    expect(sentA.map((r) => r.query.match(/discountNodes|discountAutomaticAppCreate|metafieldsSet/)?.[0])).toEqual([
      'discountNodes',
      'discountAutomaticAppCreate',
    ]);
    expect(sentA[0]?.path).toBe('/admin/api/2025-10/graphql.json');
    const discount = sentA[1]?.variables.discount as { functionId: string; metafields: Array<{ key: string; value: string }> };
    expect(discount.functionId).toBe('fn-gifts-1');
    const sentConfig = JSON.parse(discount.metafields.find((m) => m.key === 'config')?.value ?? 'null') as { r: Record<string, string> };
    expect(Object.keys(sentConfig.r)).toHaveLength(2);

    const res = await checkoutConfig(shop);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { checkoutConfig: Record<string, unknown> };
    expect(body.checkoutConfig).toMatchObject({ target: 'platform', platformDiscountId: discountIdOf(platform, domainA), limit: 10000, lastError: null });
    expect(body.checkoutConfig.config).toEqual(sentConfig);
    expect(body.checkoutConfig.bytes).toBeGreaterThan(0);
    expect(body.checkoutConfig.bytes).toBeLessThanOrEqual(10000);

    // The unconnected shop: recorded, nothing sent; its own rules only.
    const recorded = (await checkoutConfig(other)).json() as { checkoutConfig: { target: string; platformDiscountId: null; config: { r: Record<string, string> } } };
    expect(recorded.checkoutConfig).toMatchObject({ target: 'recorded', platformDiscountId: null });
    expect(Object.keys(recorded.checkoutConfig.config.r)).toHaveLength(1);
    expect(platform.requests.every((r) => r.token === TOKEN_A)).toBe(true);
    // Another instance (a new port on the same database) sees the same configuration.
    expect((await createRecordingDiscountPort(t.ctx.db).recordedConfig(other.id))?.config).toEqual(recorded.checkoutConfig.config);

    // Second time: the discount exists, so the metafields are set on it.
    expect((await t.admin({ method: 'POST', url: url(shop, `/campaigns/${mine.campaignId}/disable`) })).statusCode).toBe(200);
    platform.requests.length = 0;
    await worker.runOnce();
    expect(platform.requests.map((r) => r.query.match(/discountNodes|discountAutomaticAppCreate|metafieldsSet/)?.[0])).toEqual([
      'discountNodes',
      'metafieldsSet',
    ]);
    const metafields = platform.requests[1]?.variables.metafields as Array<{ ownerId: string; key: string; value: string }>;
    expect(metafields.map((m) => [m.ownerId, m.key])).toEqual(['config', 'config2', 'vars'].map((key) => [discountIdOf(platform, domainA), key]));
    expect(Object.keys((JSON.parse(metafields[0]?.value ?? 'null') as { r: Record<string, string> }).r)).toHaveLength(0);
    expect(Object.keys(((await checkoutConfig(shop)).json() as { checkoutConfig: { config: { r: Record<string, string> } } }).checkoutConfig.config.r)).toHaveLength(0);
  });

  it('a 401 marks the connection broken and the job retries; a new token repairs it', async () => {
    const c = await createGiftCampaign(t, shop.id, 1);
    expect((await t.admin({ method: 'POST', url: url(shop, `/campaigns/${c.campaignId}/enable?force=1`) })).statusCode).toBe(200);
    revokeToken(platform, TOKEN_A);
    const worker = dispatcher();
    expect(await worker.runOnce()).toMatchObject({ retrying: 1 });
    expect(await status(shop)).toMatchObject({ connected: true, broken: true, brokenReason: expect.stringMatching(/401/) });
    const config = (await checkoutConfig(shop)).json() as { checkoutConfig: { lastError: string; config: { r: Record<string, string> } } };
    expect(config.checkoutConfig.lastError).toMatch(/refused the access token \(401\)/);
    expect(Object.keys(config.checkoutConfig.config.r)).toHaveLength(0);
    const pending = await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.kind, 'discount_sync'), eq(outbox.status, 'pending')));
    expect(pending.map((row) => row.lastError)).toEqual([expect.stringMatching(/refused the access token \(401\)/)]);

    // The operator sets a new token: the retry (once due) writes with it.
    expect((await connect(shop, { accessToken: TOKEN_A2 })).json()).toMatchObject({ broken: false });
    ahead += 24 * 3_600_000;
    await worker.runOnce();
    expect(platform.requests.at(-1)?.token).toBe(TOKEN_A2);
    const repaired = (await checkoutConfig(shop)).json() as { checkoutConfig: { lastError: null; target: string; config: { r: Record<string, string> } } };
    expect(repaired.checkoutConfig).toMatchObject({ lastError: null, target: 'platform' });
    expect(Object.keys(repaired.checkoutConfig.config.r)).toHaveLength(1);

    const log = lines.join('');
    expect(log).toContain('platform connection broken');
    for (const token of [TOKEN_A, TOKEN_A2]) expect(log).not.toContain(token.slice(6));
  });

  it('a token sealed under another secret marks the connection broken instead of being sent', async () => {
    const third = await t.createShop('scale');
    const c = await createGiftCampaign(t, third.id, 1);
    expect((await t.admin({ method: 'POST', url: url(third, `/campaigns/${c.campaignId}/enable?force=1`) })).statusCode).toBe(200);
    await t.ctx.db.insert(platformConnections).values({ shopId: third.id, sealedToken: sealToken('the-secret-before-rotation', third.id, TOKEN_B) });
    const before = platform.requests.length;
    ahead += 24 * 3_600_000;
    await dispatcher().runOnce();
    expect(platform.requests.length).toBe(before);
    expect(await status(third)).toMatchObject({ connected: true, broken: true, brokenReason: expect.stringMatching(/cannot be opened with this PLATFORM_APP_SECRET/) });
    expect((await checkoutConfig(third)).statusCode).toBe(404);
  });

  it('app/uninstalled deletes the shop\'s access token, and only that shop\'s', async () => {
    expect((await connect(other, { accessToken: TOKEN_B })).statusCode).toBe(200);
    const domain = await domainOf(t, shop.id);
    const res = await deliver(t, { id: 1, domain }, { topic: 'app/uninstalled', domain, secret: SECRET, webhookId: 'wh-uninstall-1' });
    expect(res.json()).toEqual({ ok: true, duplicate: false });
    expect(await status(shop)).toMatchObject({ connected: false });
    expect(await status(other)).toMatchObject({ connected: true });
    // A redelivery is a duplicate: a token set after the uninstall is kept.
    expect((await connect(shop, { accessToken: TOKEN_A2 })).statusCode).toBe(200);
    const again = await deliver(t, { id: 1, domain }, { topic: 'app/uninstalled', domain, secret: SECRET, webhookId: 'wh-uninstall-1' });
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await status(shop)).toMatchObject({ connected: true });
    expect((await t.admin({ method: 'DELETE', url: url(shop, '/platform-connection') })).statusCode).toBe(200);
    // Later syncs of the uninstalled shop are recorded only.
    ahead += 24 * 3_600_000;
    platform.requests.length = 0;
    await dispatcher().runOnce();
    expect(platform.requests.filter((r) => r.token.startsWith('shpat_'))).toEqual([]);
    const [after] = await t.ctx.db.select().from(checkoutConfigs).where(eq(checkoutConfigs.shopId, shop.id));
    expect(after?.target).toBe('recorded');
    // The recorded write keeps the id of the discount the connection created.
    expect(after?.platformDiscountId).toBe(discountIdOf(platform, domainA));
  });
});
