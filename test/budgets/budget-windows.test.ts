/**
 * Gift budgets over time and beyond the admin API (docs/promotions.md "Budgets"): the
 * platform's orders/paid webhook charges the same budgets, a daily window re-opens at the
 * shop's local midnight on the injected clock and a late order counts in its own day, and a
 * spent budget queues a discount sync that drops the rule and asks for another at the window
 * end. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, outbox } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { deliver, domainOf, ordersPaidText } from '../platform-webhooks/fixtures.ts';
import { etagOf, importCampaigns } from '../rules/helpers.ts';
import type { TestApp } from '../support/test-app.ts';
import { budgetReaders, budgeted, gift, openBudgetApp } from './budget-fixtures.ts';

let clock = new Date('2026-03-10T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  ({ t } = await openBudgetApp(() => clock));
});
afterAll(() => t.close());

const { read, ruleIdsOf, counter } = budgetReaders(() => t);


describe("the platform's orders/paid webhook", () => {
  it('charges the same budgets: the delivery that spends one drops the rule; a replay changes nothing', async () => {
    const target = await t.createShop('scale');
    const domain = await domainOf(t, target.id);
    const [campaignId = ''] = await importCampaigns(t, target, [liveCampaign('Paid', [budgeted('Two', { maxGifts: 2 })])]);
    const ruleId = (await read(target, campaignId)).rules[0]?.id as string;
    const properties = [
      { name: '_svc_campaign_id', value: campaignId },
      { name: '_svc_rule_id', value: ruleId },
    ];
    const body = ordersPaidText({ id: '77001', lines: [{}, { variantId: 900, productId: 9, price: '0.00', quantity: 3, properties }] });
    const first = await deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-budget' });
    expect(first.json()).toEqual({ ok: true, duplicate: false });
    expect(await counter(target.id, 'rule', ruleId)).toEqual([{ windowStart: '1970-01-01', used: 2 }]);
    expect(await ruleIdsOf(target)).not.toContain(ruleId);
    const [row] = await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, target.id), eq(orders.id, '77001')));
    expect(row?.overBudget).toEqual([{ ruleId, campaignId, quantity: 1 }]);
    const again = await deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'wh-budget' });
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await counter(target.id, 'rule', ruleId)).toEqual([{ windowStart: '1970-01-01', used: 2 }]);
  });
});

describe('windows', () => {
  it('a daily budget spent today re-opens at local midnight without a write (injected clock); an order of a past day counts in its own day', async () => {
    const ny = await t.createShop('scale', { timezone: 'America/New_York' });
    const [campaignId = ''] = await importCampaigns(t, ny, [liveCampaign('Daily', [budgeted('Two a day', { maxGifts: 2, window: 'day' })])]);
    const ruleId = (await read(ny, campaignId)).rules[0]?.id as string;
    // 2026-03-10T12:00Z is 08:00 in New York: local day 2026-03-10, which ends at 2026-03-11T04:00Z.
    clock = new Date('2026-03-10T12:00:00.000Z');
    await postOrder(t, ny.id, order({ completedAt: '2026-03-10T11:00:00.000Z', lines: [gift(campaignId, ruleId, 2)] }));
    expect(await ruleIdsOf(ny)).not.toContain(ruleId);
    const spentEtag = await etagOf(t, ny);

    clock = new Date('2026-03-11T03:59:59.999Z');
    expect(await ruleIdsOf(ny)).not.toContain(ruleId);
    clock = new Date('2026-03-11T04:00:00.000Z');
    expect(await ruleIdsOf(ny)).toContain(ruleId);
    expect(await etagOf(t, ny)).not.toBe(spentEtag);

    // A late order of the spent day counts there (over budget), not in the new day.
    const late = order({ completedAt: '2026-03-11T03:00:00.000Z', lines: [gift(campaignId, ruleId, 1)] });
    await postOrder(t, ny.id, late);
    expect(await counter(ny.id, 'rule', ruleId)).toEqual([{ windowStart: '2026-03-10', used: 2 }]);
    expect(await ruleIdsOf(ny)).toContain(ruleId);
    await postOrder(t, ny.id, order({ completedAt: '2026-03-11T05:00:00.000Z', lines: [gift(campaignId, ruleId, 1)] }));
    expect(await counter(ny.id, 'rule', ruleId)).toEqual([
      { windowStart: '2026-03-10', used: 2 },
      { windowStart: '2026-03-11', used: 1 },
    ]);
    clock = new Date('2026-03-10T12:00:00.000Z');
  });
});

describe('the checkout configuration', () => {
  it('a spent budget queues a discount sync that drops the rule, and the sync asks for another at the window end', async () => {
    const target = await t.createShop('scale');
    const [campaignId = ''] = await importCampaigns(t, target, [
      liveCampaign('Weekly', [budgeted('Weekly', { maxGifts: 1, window: 'week' }), rule('Always', { type: 'cart.item_count_gte', value: 1 }, { gifts: [903] })]),
    ]);
    const port = createRecordingDiscountPort(t.ctx.db);
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20 });
    // Other tests' shops have rows due too: run until nothing due is left.
    const drain = async () => {
      for (let round = 0; round < 20 && (await dispatcher.runOnce()).claimed > 0; round += 1);
    };
    await drain();
    expect(Object.keys((await port.recordedConfig(target.id))?.config.r ?? [])).toHaveLength(2);

    // The sync reads the real clock: the order completes now.
    const ruleId = (await read(target, campaignId)).rules[0]?.id as string;
    await postOrder(t, target.id, order({ completedAt: new Date().toISOString(), lines: [gift(campaignId, ruleId, 1)] }));
    const queued = await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.shopId, target.id), eq(outbox.kind, 'discount_sync'), eq(outbox.status, 'pending')));
    expect(queued.map((row) => row.payload)).toEqual([{ campaignId, active: true }]);
    await drain();
    expect(Object.keys((await port.recordedConfig(target.id))?.config.r ?? [])).toHaveLength(1);
    const followUps = await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.shopId, target.id), eq(outbox.kind, 'discount_sync'), eq(outbox.status, 'pending')));
    expect(followUps).toHaveLength(1);
    // Due at the next Monday 00:00 UTC (the shop's zone), within a week.
    const due = followUps[0]?.nextAttemptAt as Date;
    expect(due.getUTCDay()).toBe(1);
    expect(due.getUTCHours()).toBe(0);
    expect(due.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    expect(due.getTime()).toBeGreaterThan(Date.now());
  });
});
