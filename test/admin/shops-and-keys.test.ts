import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { errorBody } from '../support/error-body.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
const domain = () => `admin-${Date.now()}-${(counter += 1)}.example.com`;

describe('admin authentication', () => {
  it.each([undefined, 'Bearer wrong-token-xxxxxxxxxxxx', `Basic ${ADMIN_TOKEN}`, `Bearer ${ADMIN_TOKEN}x`])(
    'answers 401 Unauthorized for %s',
    async (authorization) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/shops',
        headers: authorization ? { authorization } : {},
        payload: { domain: domain(), plan: 'scale' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    },
  );
});

describe('shops', () => {
  it('creates a shop with defaults and reads it back', async () => {
    const d = domain();
    const res = await t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain: d.toUpperCase(), plan: 'growth' } });
    expect(res.statusCode).toBe(201);
    const { shop } = res.json();
    expect(shop).toMatchObject({
      domain: d,
      plan: 'growth',
      currency: 'USD',
      timezone: 'UTC',
      limits: { campaigns: 20, rules: 100, activeCampaigns: 5 },
      limitOverrides: {},
      settings: {
        engine: { runOnExpressCheckout: true, runOnCartSubmission: true, useDiscountedPrices: false, evaluationDelay: 0, stacking: 'all' },
        checkout: { blockZeroValueCart: false, blockGiftOnlyCarts: true, stripZeroPriceItems: false },
        data: { collectCartTokens: true },
        storefront: { debug: false },
        lowStockThreshold: 5,
      },
      platform: { connected: false, connectedAt: null, brokenAt: null },
    });
    expect(Object.keys(shop)).toEqual(expect.arrayContaining(['id', 'domain', 'name', 'plan', 'currency', 'timezone', 'limits', 'settings', 'createdAt', 'platform']));
    expect(shop.id).toMatch(/^shp_[0-9A-Za-z]{16}$/);
    const get = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` });
    expect(get.json()).toEqual({ shop });
  });

  it.each([
    ['no domain', { plan: 'scale' }, ['domain']],
    ['a bad domain', { domain: 'not a domain', plan: 'scale' }, ['domain']],
    ['an unknown plan', { domain: 'x.example.com', plan: 'gold' }, ['plan']],
    ['a bad currency', { domain: 'x.example.com', plan: 'scale', currency: 'usd' }, ['currency']],
    ['an unknown currency', { domain: 'x.example.com', plan: 'scale', currency: 'XQQ' }, ['currency']],
    ['a bad timezone', { domain: 'x.example.com', plan: 'scale', timezone: 'Mars/Olympus' }, ['timezone']],
    ['an unknown field', { domain: 'x.example.com', plan: 'scale', color: 'red' }, []],
  ])('rejects %s with 400', async (_label, payload, path) => {
    const res = await t.admin({ method: 'POST', url: '/admin/v1/shops', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path });
  });

  it('answers 409 for a domain that already has a shop, naming that shop', async () => {
    const d = domain();
    const first = await t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain: d, plan: 'free' } });
    const id = first.json<{ shop: { id: string } }>().shop.id;
    const res = await t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain: d.toUpperCase(), plan: 'free' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      requestId: expect.any(String),
      error: 'Shop domain already registered',
      code: 'conflict',
      path: ['domain'],
      shopId: id,
      issue: `${d} is shop ${id} (GET /admin/v1/shops/${id})`,
    });
  });

  it('lists shops a page at a time, oldest first, and finds one by domain', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      made.push((await t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain: domain(), plan: 'growth' } })).json<{ shop: { id: string } }>().shop.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.admin({ method: 'GET', url: `/admin/v1/shops?limit=2${cursor ? `&cursor=${cursor}` : ''}` });
      expect(res.statusCode).toBe(200);
      const page = res.json<{ shops: Array<{ id: string; plan: string }>; nextCursor: string | null }>();
      expect(page.shops.length).toBeLessThanOrEqual(2);
      seen.push(...page.shops.map((shop) => shop.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(-3)).toEqual(made);

    const one = await t.admin({ method: 'GET', url: `/admin/v1/shops/${made[1]}` });
    const found = await t.admin({ method: 'GET', url: `/admin/v1/shops?domain=${one.json<{ shop: { domain: string } }>().shop.domain.toUpperCase()}` });
    expect(found.json()).toEqual({ shops: [one.json<{ shop: unknown }>().shop], nextCursor: null });
    const none = await t.admin({ method: 'GET', url: '/admin/v1/shops?domain=nobody.example.com' });
    expect(none.json()).toEqual({ shops: [], nextCursor: null });
  });

  it.each(['limit=0', 'limit=201', 'cursor=nope', 'domain=not%20a%20domain', 'other=1'])('answers 400 for GET /admin/v1/shops?%s', async (query) => {
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid query parameters' });
  });

  it('answers 401 to a shop listing without the admin token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/shops' });
    expect(res.statusCode).toBe(401);
  });

  it('patches plan, currency, timezone, limits and settings', async () => {
    const shop = await t.createShop('free');
    const res = await t.admin({
      method: 'PATCH',
      url: `/admin/v1/shops/${shop.id}`,
      payload: {
        plan: 'pro',
        currency: 'JPY',
        timezone: 'Asia/Tokyo',
        limits: { campaigns: 7, activeCampaigns: null },
        settings: { checkout: { minOrderTotalCents: 3000 }, data: { collectCartTokens: false }, lowStockThreshold: 2 },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().shop).toMatchObject({
      plan: 'pro',
      currency: 'JPY',
      timezone: 'Asia/Tokyo',
      limits: { campaigns: 7, rules: 500, activeCampaigns: 25 },
      limitOverrides: { campaigns: 7 },
      settings: {
        checkout: { blockGiftOnlyCarts: true, minOrderTotalCents: 3000, minOrderTotalMessage: expect.any(String) },
        data: { collectCartTokens: false },
        lowStockThreshold: 2,
      },
    });
    const cleared = await t.admin({
      method: 'PATCH',
      url: `/admin/v1/shops/${shop.id}`,
      payload: { limits: { campaigns: null }, settings: { checkout: { minOrderTotalCents: null } } },
    });
    expect(cleared.json().shop.limits.campaigns).toBe(100);
    expect(cleared.json().shop.settings.checkout).not.toHaveProperty('minOrderTotalCents');
    expect(cleared.json().shop.settings.checkout).not.toHaveProperty('minOrderTotalMessage');
    expect(cleared.json().shop.settings.data.collectCartTokens).toBe(false);
  });

  it.each([
    [{ plan: 'gold' }, ['plan']],
    [{ limits: { campaigns: -1 } }, ['limits', 'campaigns']],
    [{ settings: { engine: { evaluationDelay: 'soon' } } }, ['settings', 'engine', 'evaluationDelay']],
    [{ settings: { checkout: { unknown: true } } }, ['settings', 'checkout']],
  ])('rejects a bad PATCH %j with 400', async (payload, path) => {
    const shop = await t.createShop('free');
    const res = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().path).toEqual(path);
  });

  it('answers 404 for an unknown shop', async () => {
    for (const [method, url] of [
      ['GET', '/admin/v1/shops/shp_nope'],
      ['PATCH', '/admin/v1/shops/shp_nope'],
      ['POST', '/admin/v1/shops/shp_nope/api-keys'],
      ['GET', '/admin/v1/shops/shp_nope/api-keys'],
    ] as const) {
      const res = await t.admin({ method, url, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual(errorBody('Shop not found', 'not_found'));
    }
  });

  it('moving a shop off Scale turns its keys away with 403, and back on lets them in', async () => {
    const shop = await t.createShop('scale');
    await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan: 'pro' } });
    expect((await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(403);
    await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan: 'scale' } });
    expect((await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
  });
});

describe('api keys', () => {
  it('shows the key once, lists without it, and revokes', async () => {
    const shop = await t.createShop('scale');
    const created = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/api-keys`, payload: { name: 'storefront' } });
    expect(created.statusCode).toBe(201);
    const { apiKey, key } = created.json();
    expect(key).toMatch(/^gcr_[0-9A-Za-z]{16}_[0-9A-Za-z]{32}$/);
    expect(apiKey).toEqual({ id: expect.stringMatching(/^key_/), name: 'storefront', prefix: key.slice(0, 25), createdAt: expect.any(String) });
    expect((await t.api(key, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);

    const list = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/api-keys` });
    expect(list.body).not.toContain(key);
    expect(list.json().apiKeys.map((k: { id: string }) => k.id)).toContain(apiKey.id);

    const revoked = await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api-keys/${apiKey.id}` });
    expect(revoked.json()).toEqual({ ok: true });
    const after = await t.api(key, { method: 'GET', url: '/api/v1/campaigns' });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    const again = await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api-keys/${apiKey.id}` });
    expect(again.statusCode).toBe(404);
  });

  it('stores only the SHA-256 of the key', async () => {
    const shop = await t.createShop('scale');
    const result = await t.ctx.db.execute(sql`SELECT key_hash, prefix FROM api_keys WHERE shop_id = ${shop.id}`);
    const rows = result as unknown as { rows: Array<{ key_hash: string; prefix: string }> };
    const { createHash } = await import('node:crypto');
    expect(rows.rows[0]?.key_hash).toBe(createHash('sha256').update(shop.key).digest('hex'));
    expect(JSON.stringify(rows.rows)).not.toContain(shop.key);
  });

  it('does not let one shop revoke or list another shop\'s keys', async () => {
    const a = await t.createShop('scale');
    const b = await t.createShop('scale');
    const keys = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${a.id}/api-keys` })).json().apiKeys as Array<{ id: string }>;
    const res = await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${b.id}/api-keys/${keys[0]?.id}` });
    expect(res.statusCode).toBe(404);
    expect((await t.api(a, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
    const bKeys = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${b.id}/api-keys` })).json().apiKeys as Array<{ id: string }>;
    expect(bKeys.map((k) => k.id)).not.toContain(keys[0]?.id);
  });

  it('rejects a key whose shop part names another shop', async () => {
    const a = await t.createShop('scale');
    const b = await t.createShop('scale');
    const forged = `gcr_${b.id.slice(4)}_${a.key.split('_')[2]}`;
    const res = await t.api(forged, { method: 'GET', url: '/api/v1/campaigns' });
    expect(res.statusCode).toBe(401);
  });
});
