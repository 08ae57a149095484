/** Outbox retention: finished rows and their attempt log go after OUTBOX_RETENTION_DAYS. */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { outbox, outboxAttempts } from '../../src/db/schema.ts';
import { createOutboxRetentionWorker, pruneOutbox } from '../../src/outbox/retention.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { days, seedOutbox } from './seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ OUTBOX_RETENTION_DAYS: '7' });
});
afterAll(() => t.close());

async function shopWithEndpoint(): Promise<{ shop: TestShop; endpointId: string }> {
  const shop = await t.createShop('scale');
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: 'https://example.com/hooks' } });
  return { shop, endpointId: (res.json() as { endpoint: { id: string } }).endpoint.id };
}

const idsOf = async (shopId: string) =>
  (await t.ctx.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.shopId, shopId))).map((r) => r.id).sort();
const logOf = async (ids: string[]) =>
  ids.length === 0 ? [] : t.ctx.db.select().from(outboxAttempts).where(inArray(outboxAttempts.outboxId, ids));
const deliveries = async (shopId: string) => {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/webhook-deliveries` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { deliveries: Array<{ id: string; status: string; attemptLog: unknown[] }> }).deliveries;
};

describe('OUTBOX_RETENTION_DAYS', () => {
  it('defaults to 7 and must be a positive whole number of days', () => {
    expect(loadConfig({}).outboxRetentionDays).toBe(7);
    expect(loadConfig({ OUTBOX_RETENTION_DAYS: '30' }).outboxRetentionDays).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'week']) expect(() => loadConfig({ OUTBOX_RETENTION_DAYS: bad })).toThrow(/OUTBOX_RETENTION_DAYS/);
  });
});

describe('pruneOutbox', () => {
  it('deletes finished rows older than the cut-off with their attempt log, in batches, for every shop', async () => {
    const a = await shopWithEndpoint();
    const b = await shopWithEndpoint();
    const old: string[] = [];
    const kept: string[] = [];
    for (const { shop, endpointId } of [a, b]) {
      old.push(...(await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(8), attempts: 2 }, 7)));
      old.push(...(await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'failed', ageMs: days(9), attempts: 8 }, 2)));
      old.push(...(await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'cancelled', ageMs: days(30), attempts: 0 })));
      kept.push(...(await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(6) }, 2)));
      // Pending work is never pruned, however old (a retry may still be due).
      kept.push(...(await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'pending', ageMs: days(40), attempts: 3 })));
    }
    expect(await logOf(old)).toHaveLength(2 * (7 * 2 + 2 * 8));

    const deleted = await pruneOutbox(t.ctx.db, new Date(Date.now() - days(7)), { batchSize: 4 });
    expect(deleted).toBe(old.length);
    expect(await logOf(old)).toEqual([]);
    expect(await logOf(kept)).toHaveLength(2 * (2 + 3));
    expect([...(await idsOf(a.shop.id)), ...(await idsOf(b.shop.id))].sort()).toEqual([...kept].sort());
    expect(await pruneOutbox(t.ctx.db, new Date(Date.now() - days(7)))).toBe(0);
  });

  it('leaves the delivery log route showing everything within retention, with its attempts', async () => {
    const { shop, endpointId } = await shopWithEndpoint();
    const [gone] = await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(7) + 60_000, attempts: 1 });
    const [recent] = await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'failed', ageMs: days(7) - 60_000, attempts: 8 });
    const [pending] = await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'pending', ageMs: days(20), attempts: 2 });
    expect((await deliveries(shop.id)).map((d) => d.id).sort()).toEqual([gone, recent, pending].sort());

    await pruneOutbox(t.ctx.db, new Date(Date.now() - days(7)));
    const listed = await deliveries(shop.id);
    expect(listed.map((d) => d.id).sort()).toEqual([recent, pending].sort());
    expect(listed.find((d) => d.id === recent)?.attemptLog).toHaveLength(8);
    expect(listed.find((d) => d.id === pending)?.attemptLog).toHaveLength(2);
  });

  it('lets several instances prune at once without double work or waiting', async () => {
    const { shop, endpointId } = await shopWithEndpoint();
    const old = await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(10), attempts: 1 }, 60);
    const before = new Date(Date.now() - days(7));
    const counts = await Promise.all([1, 2, 3].map(() => pruneOutbox(t.ctx.db, before, { batchSize: 5 })));
    // Each row is deleted by exactly one pruner; whatever one skipped as locked, a later pass takes.
    const total = counts.reduce((sum, n) => sum + n, 0) + (await pruneOutbox(t.ctx.db, before));
    expect(total).toBe(old.length);
    expect(await idsOf(shop.id)).toEqual([]);
  });

  it('stops between batches when asked', async () => {
    const { shop, endpointId } = await shopWithEndpoint();
    await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(10) }, 3);
    expect(await pruneOutbox(t.ctx.db, new Date(Date.now() - days(7)), { batchSize: 1, shouldStop: () => true })).toBe(0);
    expect(await idsOf(shop.id)).toHaveLength(3);
    await pruneOutbox(t.ctx.db, new Date(Date.now() - days(7)));
  });
});

describe('the outbox retention worker', () => {
  it('prunes at start with OUTBOX_RETENTION_DAYS and stops cleanly', async () => {
    const { shop, endpointId } = await shopWithEndpoint();
    await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(7) + 3_600_000 }, 3);
    const recent = await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(7) - 3_600_000 }, 2);
    const worker = createOutboxRetentionWorker(t.ctx, { intervalMs: 60_000 });
    worker.start();
    try {
      for (let i = 0; i < 200 && (await idsOf(shop.id)).length > 2; i += 1) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await worker.stop();
    }
    expect(await idsOf(shop.id)).toEqual([...recent].sort());
  });
});
