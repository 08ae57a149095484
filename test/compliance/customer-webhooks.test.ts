/**
 * `customers/data_request` and `customers/redact` (CONTRACT part three "Compliance webhooks"):
 * signed deliveries through the app, then the database read. Two shops hold the same customer
 * id; only the shop the platform names is touched. PGlite and PostgreSQL (+ Redis).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_KEYED_TABLES } from '../../src/compliance/customer-data.ts';
import * as schema from '../../src/db/schema.ts';
import { dataRequests, orders, outbox, redemptions, shops, storefrontEvents } from '../../src/db/schema.ts';
import { errorBody } from '../support/error-body.ts';
import { openLoginLink } from '../support/login-link.ts';
import { createTestApp } from '../support/test-app.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import type { SeededShop } from './fixtures.ts';
import { SECRET, dataRequestPayload, deliver, domainOf, rowsByTable, seedEveryTable, sendCustomerRedact, sendDataRequest, sendShopRedact } from './fixtures.ts';

type DataRequest = { id: string; customerId: string; receivedAt: string; export: Record<string, unknown[]> & { customer: { id: string } } };

describe('customers/data_request and customers/redact', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let domain: string;
  let otherDomain: string;
  let seeded: SeededShop;
  const customerId = '115310627314723954';
  const bystander = '42';

  beforeAll(async () => {
    t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
    [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
    [domain, otherDomain] = await Promise.all([domainOf(t, shop.id), domainOf(t, other.id)]);
    seeded = await seedEveryTable(t, shop, domain, customerId);
    await seedEveryTable(t, other, otherDomain, customerId);
    // Another customer of the same shop, who must keep everything.
    await seedEveryTable(t, shop, domain, bystander);
  });
  afterAll(() => t.close());

  const listRequests = async (shopId: string) => {
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/data-requests` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { dataRequests: DataRequest[] }).dataRequests;
  };
  const analytics = async (shopId: string) =>
    (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/analytics?from=2026-01-01&to=2026-01-31` })).json() as unknown;
  const customerRows = async (shopId: string, id: string) => ({
    redemptions: (await t.ctx.db.select().from(redemptions).where(and(eq(redemptions.shopId, shopId), eq(redemptions.customerId, id)))).length,
    orders: (await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, shopId), eq(orders.customerId, id)))).length,
    events: (await t.ctx.db.select().from(storefrontEvents).where(and(eq(storefrontEvents.shopId, shopId), sql`${storefrontEvents.context} ->> 'customerId' = ${id}`))).length,
    webhooks: (await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shopId), sql`${outbox.payload} -> 'data' ->> 'customerId' = ${id}`))).length,
    syncJobs: (await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shopId), sql`${outbox.payload} ->> 'customerId' = ${id}`))).length,
    dataRequests: (await t.ctx.db.select().from(dataRequests).where(and(eq(dataRequests.shopId, shopId), eq(dataRequests.customerId, id)))).length,
  });

  it('lists every table with a customer_id column among the places a redaction handles', () => {
    const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
    const withCustomer = tables.filter((table) => getTableConfig(table).columns.some((column) => column.name === 'customer_id')).map(getTableName);
    expect([...withCustomer].sort()).toEqual([...CUSTOMER_KEYED_TABLES].sort());
  });

  describe('customers/data_request', () => {
    it('stores one export of everything held about the customer in that shop', async () => {
      const res = await sendDataRequest(t, domain, { customerId, dataRequestId: '9999', orders: [seeded.orderIds[0] ?? ''] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, duplicate: false });
      const request = (await listRequests(shop.id)).find((r) => r.id === '9999');
      expect(request).toMatchObject({ id: '9999', customerId });
      const data = request?.export;
      expect(data?.customer).toEqual({ id: customerId });
      // Two gift orders of one rule: one record counted twice.
      expect(data?.redemptions).toEqual([expect.objectContaining({ ruleId: seeded.promo.ruleIds[0], count: 2 })]);
      expect((data?.orders as Array<{ id: string; customerId: string }>).map((o) => o.id).sort()).toEqual([...seeded.orderIds].sort());
      expect((data?.orders as Array<{ customerId: string }>).every((o) => o.customerId === customerId)).toBe(true);
      expect(data?.storefrontEvents).toEqual([expect.objectContaining({ type: 'gift_added', visitorId: 'vis_1', context: expect.objectContaining({ customerId }) })]);
      expect(JSON.stringify(data)).not.toContain(other.id);
    });

    it('exports the orders the platform names too, a guest order among them', async () => {
      await postOrder(t, shop.id, order({ id: '88001', customerId: null }));
      const res = await sendDataRequest(t, domain, { customerId, dataRequestId: '9998', orders: ['88001', '404404'] });
      expect(res.json()).toEqual({ ok: true, duplicate: false });
      const data = (await listRequests(shop.id)).find((r) => r.id === '9998')?.export;
      const ids = (data?.orders as Array<{ id: string }>).map((o) => o.id);
      expect(ids).toContain('88001');
      expect(ids).toHaveLength(3);
    });

    it('acts once for the same delivery, and keeps the first export for another delivery of the same request', async () => {
      const first = (await listRequests(shop.id)).find((r) => r.id === '9999');
      const again = await sendDataRequest(t, domain, { customerId, dataRequestId: '9999' }, 'wh-dr-a');
      expect(again.json()).toEqual({ ok: true, duplicate: true });
      expect((await sendDataRequest(t, domain, { customerId, dataRequestId: '9999' }, 'wh-dr-a')).json()).toEqual({ ok: true, duplicate: true });
      const requests = (await listRequests(shop.id)).filter((r) => r.id === '9999');
      expect(requests).toEqual([first]);
    });

    it('lists a shop\'s requests only for that shop, for the operator and the merchant', async () => {
      expect((await listRequests(other.id)).some((r) => r.id === '9999')).toBe(false);
      const link = await t.admin({ method: 'POST', url: `/admin/v1/shops/${other.id}/login-links` });
      const signedIn = await openLoginLink(t.app, (link.json() as { url: string }).url);
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
      const res = await t.app.inject({ method: 'GET', url: '/app/api/v1/data-requests', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      const mine = (res.json() as { dataRequests: DataRequest[] }).dataRequests;
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((r) => r.export.shop && JSON.stringify(r.export).includes(other.id))).toBe(true);
      expect(mine.some((r) => r.id === '9999')).toBe(false);
      expect((await t.app.inject({ method: 'GET', url: '/app/api/v1/data-requests' })).statusCode).toBe(401);
    });

    it('answers 401 for a wrong signature, 400 for a payload without a customer, 200 for an unknown shop', async () => {
      const body = dataRequestPayload(domain, { customerId, dataRequestId: '777' });
      const forged = await deliver(t, body, { topic: 'customers/data_request', domain, secret: 'wrong' });
      expect(forged.statusCode).toBe(401);
      expect(forged.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
      const bad = await deliver(t, { shop_domain: domain, data_request: { id: 1 } }, { topic: 'customers/data_request', domain });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Invalid customers/data_request payload', path: ['customer'] });
      const unknown = await deliver(t, body, { topic: 'customers/data_request', domain: 'nobody.myshopify.com' });
      expect(unknown.json()).toEqual({ ok: true, ignored: 'unknown_shop' });
      expect((await listRequests(shop.id)).some((r) => r.id === '777')).toBe(false);
    });
  });

  describe('customers/redact', () => {
    it('removes the customer from that shop only, and analytics totals stay', async () => {
      const otherBefore = await rowsByTable(t, other.id);
      const bystanderBefore = await customerRows(shop.id, bystander);
      const before = await customerRows(shop.id, customerId);
      expect(before).toMatchObject({ redemptions: 1, orders: 2, events: 1, dataRequests: 3 });
      // A guest order the platform names, carrying a shopper's note beside the service's attributes.
      const note = order({ id: '88002', customerId: null, lines: [{ gift: { campaignId: seeded.promo.campaignId } }] });
      const lines = note.lines.map((line) => ({ ...line, attributes: { ...('attributes' in line ? line.attributes : {}), 'Gift note': 'For Ann' } }));
      await postOrder(t, shop.id, { ...note, lines });
      const totals = await analytics(shop.id);
      expect(before.webhooks).toBeGreaterThan(0);

      // Ids past one statement's worth (read in batches), most of them orders the service never saw.
      const named = [...seeded.orderIds, '88002', ...Array.from({ length: 2500 }, (_, i) => String(9_000_000 + i))];
      const res = await sendCustomerRedact(t, domain, { customerId, orders: named }, 'wh-redact-c');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, duplicate: false });

      expect(await customerRows(shop.id, customerId)).toEqual({ redemptions: 0, orders: 0, events: 0, webhooks: 0, syncJobs: 0, dataRequests: 0 });
      expect(await analytics(shop.id)).toEqual(totals);
      expect(await customerRows(shop.id, bystander)).toEqual(bystanderBefore);
      expect(await rowsByTable(t, other.id)).toEqual(otherBefore);
      expect((await customerRows(other.id, customerId)).redemptions).toBe(1);
      // The orders stay, anonymised: a redelivered order is still counted once.
      const kept = await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, shop.id), eq(orders.id, seeded.orderIds[0] ?? '')));
      expect(kept[0]?.customerId).toBeNull();
      expect(kept[0]?.payload.customerId).toBeNull();
      const guest = await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, shop.id), eq(orders.id, '88002')));
      expect((guest[0]?.payload.lines as Array<{ attributes: Record<string, string> }>)[0]?.attributes).toEqual({
        _svc_campaign_id: seeded.promo.campaignId,
        _svc_auto: 'true',
      });
      const redemptionsApi = await t.api(shop, { method: 'GET', url: `/api/v1/redemptions?customerId=${customerId}` });
      expect((redemptionsApi.json() as { redemptions: unknown[] }).redemptions).toEqual([]);
    });

    it('acts once for the same delivery; another delivery of the same request changes nothing', async () => {
      const totals = await analytics(shop.id);
      const rows = await rowsByTable(t, shop.id);
      expect((await sendCustomerRedact(t, domain, { customerId }, 'wh-redact-c')).json()).toEqual({ ok: true, duplicate: true });
      expect((await sendCustomerRedact(t, domain, { customerId }, 'wh-redact-d')).json()).toEqual({ ok: true, duplicate: false });
      expect(await analytics(shop.id)).toEqual(totals);
      expect(await rowsByTable(t, shop.id)).toEqual({ ...rows, platform_webhook_deliveries: (rows.platform_webhook_deliveries ?? 0) + 1 });
    });

    it('answers 401 for a wrong signature and 400 for a customer id that is not a number', async () => {
      const forged = await deliver(t, { customer: { id: 1 } }, { topic: 'customers/redact', domain, secret: 'wrong' });
      expect(forged.statusCode).toBe(401);
      const bad = await deliver(t, { shop_domain: domain, customer: { id: 'abc' } }, { topic: 'customers/redact', domain });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Invalid customers/redact payload', path: ['customer', 'id'] });
    });
  });

  /**
   * The customer topics are units of work without the shop's lock (writeShopUnlocked): while
   * the shop row is held as an UPDATE of it holds it (order intake's budget touch, FOR NO KEY
   * UPDATE), they answer; a writeShop (shop/redact, FOR UPDATE) waits. Without ever timing out:
   * the test holds the row until the request answered or is seen waiting on a lock.
   */
  describe.skipIf(testDbKind() !== 'postgres')(`${POSTGRES_ONLY}the shop lock`, () => {
    type Held = { outcome: 'answered' } | { outcome: 'waited'; pending: Promise<unknown> };
    const whileShopRowUpdated = (shopId: string, send: () => Promise<{ statusCode: number }>) =>
      t.ctx.db.transaction(async (tx): Promise<Held> => {
        await tx.select({ id: shops.id }).from(shops).where(eq(shops.id, shopId)).for('no key update');
        let answered = false;
        const pending = send().finally(() => {
          answered = true;
        });
        for (;;) {
          if (answered) {
            expect((await pending).statusCode).toBe(200);
            return { outcome: 'answered' };
          }
          const waiting = await tx.execute(sql`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
          if ((waiting as unknown as { rows: unknown[] }).rows.length > 0) return { outcome: 'waited', pending };
          await sleep(5);
        }
      });

    it('customers/redact and customers/data_request take no shop lock; shop/redact does', async () => {
      const held = await t.createShop('scale');
      const heldDomain = await domainOf(t, held.id);
      await seedEveryTable(t, held, heldDomain, customerId);
      expect(await whileShopRowUpdated(held.id, () => sendCustomerRedact(t, heldDomain, { customerId }))).toEqual({ outcome: 'answered' });
      expect(await whileShopRowUpdated(held.id, () => sendDataRequest(t, heldDomain, { customerId, dataRequestId: '4242' }))).toEqual({ outcome: 'answered' });
      expect((await listRequests(held.id)).map((r) => r.id)).toContain('4242');
      // The control: a writeShop waits for the row, then runs once it is free.
      const redact = await whileShopRowUpdated(held.id, () => sendShopRedact(t, heldDomain));
      expect(redact.outcome).toBe('waited');
      if (redact.outcome === 'waited') expect(await redact.pending).toMatchObject({ statusCode: 200 });
      expect((await rowsByTable(t, held.id)).shops).toBe(0);
    });
  });
});
