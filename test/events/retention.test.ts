import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyTotals, storefrontEvents } from '../../src/db/schema.ts';
import { ingestEvents } from '../../src/events/ingest.ts';
import { createEventRetentionWorker, pruneEvents } from '../../src/events/retention.ts';
import { getShop } from '../../src/shops/store.ts';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const DAY_MS = 86_400_000;

describe('event retention', () => {
  let t: TestApp;
  let shops: TestShop[];
  let campaigns: GiftCampaign[];

  beforeAll(async () => {
    t = await createTestApp({ EVENT_RETENTION_DAYS: '30' });
    shops = [await t.createShop('scale'), await t.createShop('scale')];
    campaigns = [await createGiftCampaign(t, shops[0]?.id ?? ''), await createGiftCampaign(t, shops[1]?.id ?? '')];
  });
  afterAll(() => t.close());

  /** Stores `count` events per shop received `ageDays` ago, through the ingest path. */
  async function seed(ageDays: number, count: number) {
    for (const [index, shop] of shops.entries()) {
      const record = await getShop(t.ctx.db, shop.id);
      const c = campaigns[index];
      if (!record || !c) throw new Error('fixture missing');
      const events = Array.from({ length: count }, () => ({
        type: 'choice_shown' as const,
        campaignId: c.campaignId,
        ruleId: c.ruleIds[0] ?? '',
        variantId: 'gid://shopify/ProductVariant/1',
      }));
      await ingestEvents(t.ctx.db, record, { events }, new Date(Date.now() - ageDays * DAY_MS));
    }
  }
  const countOf = async (shopId: string) =>
    (await t.ctx.db.select({ id: storefrontEvents.id }).from(storefrontEvents).where(eq(storefrontEvents.shopId, shopId))).length;

  it('deletes events received before the cut-off in batches, for every shop, and keeps the rest', async () => {
    await seed(40, 23);
    await seed(10, 5);
    const deleted = await pruneEvents(t.ctx.db, new Date(Date.now() - 30 * DAY_MS), { batchSize: 7 });
    expect(deleted).toBe(46);
    for (const shop of shops) expect(await countOf(shop.id)).toBe(5);
    expect(await pruneEvents(t.ctx.db, new Date(Date.now() - 30 * DAY_MS))).toBe(0);
  });

  it('never touches the rollups', async () => {
    const shop = shops[0];
    if (!shop) throw new Error('fixture missing');
    await postOrder(t, shop.id, order({ completedAt: '2020-01-01T10:00:00Z' }));
    await pruneEvents(t.ctx.db, new Date());
    const rows = await t.ctx.db.select().from(dailyTotals).where(eq(dailyTotals.shopId, shop.id));
    expect(rows).toHaveLength(1);
  });

  it('stops between batches when asked', async () => {
    await seed(40, 10);
    const deleted = await pruneEvents(t.ctx.db, new Date(Date.now() - 30 * DAY_MS), { batchSize: 4, shouldStop: () => true });
    expect(deleted).toBe(0);
    await pruneEvents(t.ctx.db, new Date(Date.now() - 30 * DAY_MS));
  });

  it('runs as a worker that prunes at start with EVENT_RETENTION_DAYS and stops cleanly', async () => {
    await seed(31, 3);
    await seed(29, 2);
    const worker = createEventRetentionWorker(t.ctx, { intervalMs: 60_000 });
    worker.start();
    try {
      for (let i = 0; i < 100 && (await countOf(shops[0]?.id ?? '')) > 2; i += 1) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await worker.stop();
    }
    // Earlier tests emptied the table: what is left is the two recent events of each shop.
    for (const shop of shops) expect(await countOf(shop.id)).toBe(2);
  });
});
