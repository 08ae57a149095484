/**
 * Discount sync jobs through the outbox dispatcher: the campaign's state recorded through the
 * platform port, a failing port retried on the schedule, the state read when the job runs (a
 * late job cannot undo a newer change), a re-sync when it changes during the call, and a job
 * without a campaign id failed at once.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { campaigns, discountSyncs } from '../../src/db/schema.ts';
import { writeOutbox } from '../../src/outbox/enqueue.ts';
import type { DiscountPort } from '../../src/platform/discount-port.ts';
import { createWebhookSetup, resetBetweenTests } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

let s: WebhookSetup;
beforeAll(async () => {
  s = await createWebhookSetup();
});
afterAll(() => s.close());
beforeEach(() => resetBetweenTests(s));

describe('discount sync jobs', () => {
  async function liveCampaign(shopId: string, live: boolean) {
    const id = `cmp_sync${Math.random().toString(36).slice(2, 10)}`;
    await s.t.ctx.db.insert(campaigns).values({ shopId, id, name: 'Sync', enabled: live, isDraft: false });
    return id;
  }
  const recorded = async (shopId: string, campaignId: string) =>
    (await s.t.ctx.db.select().from(discountSyncs).where(and(eq(discountSyncs.shopId, shopId), eq(discountSyncs.campaignId, campaignId))))[0]
      ?.active;

  it('records the campaign\'s state through the port, retrying a failing port on the schedule', async () => {
    const { shop } = await s.newShop();
    const id = await liveCampaign(shop.id, true);
    await s.t.ctx.db.transaction((tx) => writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: { campaignId: id, active: true } }], s.clock.now()));
    let calls = 0;
    const flaky: DiscountPort = {
      async syncAutomaticDiscount() {
        calls += 1;
        throw new Error('platform unavailable');
      },
      writeCheckoutConfig: () => Promise.resolve(),
    };
    expect(await s.dispatcher({ discountPort: flaky, random: () => 0.5 }).runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    const [row] = await s.rows(shop);
    expect(row).toMatchObject({ kind: 'discount_sync', status: 'pending', attempts: 1, lastError: 'platform unavailable' });
    expect(calls).toBe(1);
    s.clock.advance(5000);
    expect(await s.dispatcher().runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await recorded(shop.id, id)).toBe(true);
  });

  it('syncs the state as it is when the job runs, so a late job cannot undo a newer change', async () => {
    const { shop } = await s.newShop();
    const id = await liveCampaign(shop.id, false);
    // Queued when the campaign went live, run after it was disabled again.
    await s.t.ctx.db.transaction((tx) => writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: { campaignId: id, active: true } }], s.clock.now()));
    await s.dispatcher().runOnce();
    expect(await recorded(shop.id, id)).toBe(false);
  });

  it('re-syncs when the state changes during the port call', async () => {
    const { shop } = await s.newShop();
    const id = await liveCampaign(shop.id, true);
    await s.t.ctx.db.transaction((tx) => writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: { campaignId: id, active: true } }], s.clock.now()));
    const seen: boolean[] = [];
    const racing: DiscountPort = {
      async syncAutomaticDiscount(_shopId, _campaignId, active) {
        seen.push(active);
        if (seen.length === 1) await s.t.ctx.db.update(campaigns).set({ enabled: false }).where(and(eq(campaigns.shopId, shop.id), eq(campaigns.id, id)));
      },
      writeCheckoutConfig: () => Promise.resolve(),
    };
    expect(await s.dispatcher({ discountPort: racing }).runOnce()).toMatchObject({ delivered: 1 });
    expect(seen).toEqual([true, false]);
  });

  it('fails a job without a campaign id at once', async () => {
    const { shop } = await s.newShop();
    // A malformed row, as a hand edit or an older version could leave: the writer's type forbids it.
    await s.t.ctx.db.transaction((tx) => writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: {} as never }], s.clock.now()));
    expect(await s.dispatcher().runOnce()).toMatchObject({ failed: 1 });
    expect((await s.rows(shop))[0]).toMatchObject({ status: 'failed', lastError: 'Job payload has no campaignId' });
  });
});
