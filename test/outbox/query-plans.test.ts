/**
 * The outbox's hot reads use indexes that hold only what they serve: claiming due work reads
 * the partial index of pending rows and the attempt log's primary key, never delivered
 * history; retention reads the partial index of finished rows. Shown with EXPLAIN on a table
 * whose history dwarfs its pending work, as in production, with fresh statistics.
 */
import { sql } from 'drizzle-orm';
import type { SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueRows, endpointKey, laneFilter, markAbandoned } from '../../src/outbox/claim.ts';
import { finishedBefore } from '../../src/outbox/retention.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { days, seedOutbox } from './seed.ts';

let t: TestApp;
let shopId = '';
let endpointId = '';
let pending: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const shop = await t.createShop('scale');
  shopId = shop.id;
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: 'https://example.com/hooks' } });
  endpointId = (res.json() as { endpoint: { id: string } }).endpoint.id;
  // Seven days of history (delivered, two attempts each) against a handful of pending rows.
  await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(3), attempts: 2 }, 3000);
  await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'delivered', ageMs: days(8), attempts: 2 }, 20);
  pending = await seedOutbox(t.ctx.db, shop.id, endpointId, { status: 'pending', ageMs: 0, attempts: 1 }, 5);
  await t.ctx.db.execute(sql`ANALYZE outbox`);
  await t.ctx.db.execute(sql`ANALYZE outbox_attempts`);
}, 120_000);
afterAll(() => t.close());

async function plan(query: SQLWrapper): Promise<string> {
  const result = (await t.ctx.db.execute(sql`EXPLAIN ${query.getSQL()}`)) as unknown as { rows: Array<Record<string, string>> };
  return result.rows.map((row) => row['QUERY PLAN'] ?? '').join('\n');
}

describe('outbox query plans', () => {
  it('claims due rows through the partial index of pending work', async () => {
    const text = await plan(dueRows(t.ctx.db, new Date(), 20));
    expect(text).toContain('outbox_due_idx');
    expect(text).not.toMatch(/Seq Scan on outbox/);
    // And it finds them: the plan is not merely cheap but right.
    expect((await dueRows(t.ctx.db, new Date(Date.now() + 1000), 20)).map((r) => r.id).sort()).toEqual([...pending].sort());
  });

  it('claims one lane, past endpoints at their bound, through the same index', async () => {
    const full = { perEndpoint: 2, inFlight: new Map([[endpointKey(shopId, endpointId), 2]]) };
    for (const filter of [laneFilter('webhook', full), laneFilter('discount_sync', undefined)]) {
      const text = await plan(dueRows(t.ctx.db, new Date(), 20, filter));
      expect(text).toContain('outbox_due_idx');
      expect(text).not.toMatch(/Seq Scan on outbox/);
    }
    // The endpoint at its bound has its pending rows skipped; with a free slot they are due.
    expect(await dueRows(t.ctx.db, new Date(Date.now() + 1000), 20, laneFilter('webhook', full))).toEqual([]);
    const open = { perEndpoint: 3, inFlight: full.inFlight };
    expect(await dueRows(t.ctx.db, new Date(Date.now() + 1000), 20, laneFilter('webhook', open))).toHaveLength(pending.length);
  });

  it("settles the previous attempt's log entry by primary key, not by scanning the log", async () => {
    const text = await plan(markAbandoned(t.ctx.db, pending.map((id) => ({ shopId, id, attempts: 1 }))));
    expect(text).toContain('outbox_attempts_shop_id_outbox_id_attempt_pk');
    expect(text).not.toMatch(/Seq Scan on outbox_attempts/);
  });

  it('finds rows to prune through the partial index of finished rows', async () => {
    const text = await plan(finishedBefore(t.ctx.db, new Date(Date.now() - days(7)), 1000));
    expect(text).toContain('outbox_finished_idx');
    expect(text).not.toMatch(/Seq Scan on outbox/);
  });
});
