/**
 * `shop/redact` (CONTRACT part three "Compliance webhooks"): signed deliveries through the app,
 * then every table read. The tables are the schema's own list (every table with `shop_id`), so
 * a table added later fails "a row in every table" until the seed writes it, and is deleted by
 * shop/redact without a change to the handler. PGlite and PostgreSQL (+ Redis).
 */
import { getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopKeyedTables } from '../../src/compliance/shop-redact.ts';
import { getShopByDomain } from '../../src/shops/store.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { ordersPaidText, productPayload } from '../platform-webhooks/fixtures.ts';
import { SECRET, deliver, domainOf, rowsByTable, seedEveryTable, sendCustomerRedact, sendDataRequest, sendShopRedact, shopRedactPayload } from './fixtures.ts';

describe('shop/redact', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let domain: string;
  let otherDomain: string;
  const customerId = '207119551';

  beforeAll(async () => {
    t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
    [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
    [domain, otherDomain] = await Promise.all([domainOf(t, shop.id), domainOf(t, other.id)]);
    // Both shops hold the same customer id: only the redacted shop's rows may go.
    await seedEveryTable(t, shop, domain, customerId);
    await seedEveryTable(t, other, otherDomain, customerId);
  });
  afterAll(() => t.close());

  it('derives the shop-keyed tables from the schema, children before the tables they reference', () => {
    const names = shopKeyedTables().map(getTableName);
    expect(names).toContain('data_requests');
    expect(names).not.toContain('shops');
    expect(names.indexOf('rules')).toBeLessThan(names.indexOf('campaigns'));
    expect(names.indexOf('outbox_attempts')).toBeLessThan(names.indexOf('outbox'));
    expect(names.indexOf('variants')).toBeLessThan(names.indexOf('products'));
  });

  it('refuses a wrong signature with 401 and deletes nothing', async () => {
    const res = await deliver(t, shopRedactPayload(domain), { topic: 'shop/redact', domain, secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    expect((await rowsByTable(t, shop.id)).shops).toBe(1);
  });

  it('keeps a shop whose app is installed again (live platform connection), once per delivery', async () => {
    const base = `/admin/v1/shops/${other.id}`;
    await t.admin({ method: 'PUT', url: `${base}/platform-connection`, payload: { accessToken: `shpat_${'b'.repeat(32)}` } });
    const before = await rowsByTable(t, other.id);
    const first = await sendShopRedact(t, otherDomain, 'wh-connected');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, duplicate: false });
    expect((await sendShopRedact(t, otherDomain, 'wh-connected')).json()).toEqual({ ok: true, duplicate: true });
    const after = await rowsByTable(t, other.id);
    expect(after).toEqual({ ...before, platform_webhook_deliveries: (before.platform_webhook_deliveries ?? 0) + 1 });
    // Uninstalled again: the connection broken, as the platform's shop/redact finds it.
    await t.admin({ method: 'DELETE', url: `${base}/platform-connection` });
  });

  it('deletes every row of the shop in every table, and nothing of the other shop', async () => {
    const before = await rowsByTable(t, shop.id);
    const missing = Object.entries(before).filter(([, n]) => n < 1).map(([name]) => name);
    // A new shop-keyed table fails here until the seed gives it a row.
    expect(missing, 'tables the seed left empty').toEqual([]);
    const otherBefore = await rowsByTable(t, other.id);

    const res = await sendShopRedact(t, domain, 'wh-redact-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, duplicate: false });

    const after = await rowsByTable(t, shop.id);
    expect(Object.entries(after).filter(([, n]) => n !== 0)).toEqual([]);
    expect(await rowsByTable(t, other.id)).toEqual(otherBefore);
  });

  it('answers the same delivery again, and any later webhook of the domain, 200 unknown_shop', async () => {
    const again = await sendShopRedact(t, domain, 'wh-redact-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true, ignored: 'unknown_shop' });
    for (const topic of ['customers/redact', 'orders/paid', 'app/uninstalled', 'shop/redact']) {
      const res = await deliver(t, { shop_domain: domain, customer: { id: 1 } }, { topic, domain });
      expect(res.statusCode, topic).toBe(200);
      expect(res.json(), topic).toEqual({ ok: true, ignored: 'unknown_shop' });
    }
  });

  it('stops serving the deleted shop: its API key, its rules, the admin and the merchant admin', async () => {
    const rules = await t.api(shop, { method: 'GET', url: '/api/v1/rules' });
    expect(rules.statusCode).toBe(401);
    expect((await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(401);
    expect((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` })).statusCode).toBe(404);
    expect((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/data-requests` })).statusCode).toBe(404);
    expect(await getShopByDomain(t.ctx.db, domain)).toBeUndefined();
    // The other shop still serves.
    expect((await t.api(other, { method: 'GET', url: '/api/v1/rules' })).statusCode).toBe(200);
  });

  it('lets the domain come back as a fresh shop, with nothing of the old one', async () => {
    const created = await t.admin({ method: 'POST', url: '/admin/v1/shops', payload: { domain, plan: 'free' } });
    expect(created.statusCode).toBe(201);
    const fresh = (created.json() as { shop: { id: string } }).shop;
    expect(fresh.id).not.toBe(shop.id);
    const rows = await rowsByTable(t, fresh.id);
    expect(Object.entries(rows).filter(([name, n]) => name !== 'shops' && n !== 0)).toEqual([]);
    const campaigns = await t.admin({ method: 'GET', url: `/admin/v1/shops/${fresh.id}/campaigns` });
    expect((campaigns.json() as { campaigns: unknown[] }).campaigns).toEqual([]);
  });

  it('answers 200 to webhooks racing a shop/redact, and leaves no row of the shop behind', async () => {
    const racing = await t.createShop('scale');
    const racingDomain = await domainOf(t, racing.id);
    await seedEveryTable(t, racing, racingDomain, customerId);
    const answers = await Promise.all([
      sendShopRedact(t, racingDomain),
      deliver(t, ordersPaidText({ id: '5550001', customerId: Number(customerId) }), { topic: 'orders/paid', domain: racingDomain }),
      sendCustomerRedact(t, racingDomain, { customerId }),
      sendDataRequest(t, racingDomain, { customerId, dataRequestId: '31337' }),
      deliver(t, productPayload({ id: 3 }), { topic: 'products/update', domain: racingDomain }),
      sendShopRedact(t, racingDomain),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const left = await rowsByTable(t, racing.id);
    expect(Object.entries(left).filter(([, n]) => n !== 0)).toEqual([]);
  });

  it('answers 400 for a payload that is not an object', async () => {
    const res = await deliver(t, '[1]', { topic: 'shop/redact', domain: otherDomain });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: string }).error).toBe('Invalid shop/redact payload');
    expect((await rowsByTable(t, other.id)).shops).toBe(1);
  });
});
