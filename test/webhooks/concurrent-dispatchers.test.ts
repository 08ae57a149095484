/**
 * Several instances share the outbox: two dispatchers — on PostgreSQL each with its own
 * connection pool, as two processes would be — never send the same attempt twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOutbox } from '../../src/outbox/enqueue.ts';
import type { Database } from '../../src/db/database.ts';
import { createTwoInstanceWebhookSetup } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

let s: WebhookSetup;
let second: Database | undefined;
let closeSetup: () => Promise<void>;
beforeAll(async () => {
  ({ setup: s, secondDb: second, close: closeSetup } = await createTwoInstanceWebhookSetup());
});
afterAll(() => closeSetup());

describe('two dispatchers on one database', () => {
  it('deliver every event exactly once between them', async () => {
    const { shop } = await s.newShop();
    const count = 60;
    const messageIds = await s.t.ctx.db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) ids.push(...(await writeOutbox(tx, shop.id, [{ kind: 'webhook', type: 'gift.added', data: { n: i } }])));
      return ids;
    });
    s.clock.set(Date.now() + 1000);
    const a = s.dispatcher({ batchSize: 7 });
    const b = s.dispatcher({ batchSize: 7, ...(second ? { db: second } : {}) });
    const drain = async (d: typeof a) => {
      let claimed = 0;
      for (let summary = await d.runOnce(); summary.claimed > 0; summary = await d.runOnce()) claimed += summary.claimed;
      return claimed;
    };
    const [byA, byB] = await Promise.all([drain(a), drain(b)]);
    expect(byA + byB).toBe(count);
    if (second) expect(Math.min(byA, byB)).toBeGreaterThan(0);
    const ids = s.receiver.requests.filter((r) => r.path === `/${shop.id}`).map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(count);
    expect(new Set(ids)).toEqual(new Set(messageIds));
    const rows = await s.rows(shop);
    expect(rows.every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
    expect(await s.attempts(shop)).toHaveLength(count);
  });
});
