/**
 * Gift budgets (issue 13 part 2, docs/promotions.md "Budgets") through the app: import, PUT and
 * GET keep and validate rule and campaign budgets, order intake counts gift units against them
 * and reports what it could not grant, a spent rule (or every rule of a spent campaign) leaves
 * GET /rules and /evaluate, raising the budget brings it back, and another shop is never
 * touched. Windows, the platform's webhook and the checkout configuration are in
 * budget-windows.test.ts. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCampaignStats, orders, outbox } from '../../src/db/schema.ts';
import { cartOf, evaluationOf, line, liveCampaign, rule } from '../evaluate/helpers.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { etagOf, importCampaigns } from '../rules/helpers.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { budgetReaders, budgeted, gift, openBudgetApp } from './budget-fixtures.ts';
import type { Campaign } from './budget-fixtures.ts';

const clock = new Date('2026-03-10T12:00:00.000Z');
let t: TestApp;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  ({ t, shop, other } = await openBudgetApp(() => clock));
});
afterAll(() => t.close());

const { read, ruleIdsOf, counter } = budgetReaders(() => t);

const converted = async (orderId: string) => {
  const rows = await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.eventType, 'order.converted')));
  return rows.map((row) => (row.payload as { data: Record<string, unknown> }).data).find((data) => data.orderId === orderId);
};

/** PUT the campaign as read, with `change` applied. */
async function put(target: TestShop, id: string, change: (body: Record<string, unknown>) => Record<string, unknown>) {
  const { id: _id, createdAt: _c, updatedAt: _u, experiment: _e, budgetUsage: _b, ...campaign } = (await read(target, id)) as Campaign & Record<string, unknown>;
  const rules = (campaign.rules as Array<Record<string, unknown>>).map(({ createdAt: _rc, updatedAt: _ru, ...r }) => r);
  return t.admin({ method: 'PUT', url: `/admin/v1/shops/${target.id}/campaigns/${id}`, payload: change({ ...campaign, rules }) });
}

describe('budgets in campaign bodies', () => {
  let campaignId: string;

  it('import keeps a rule budget (window defaults to total) and a campaign budget; GET returns them, the list does not', async () => {
    [campaignId = ''] = await importCampaigns(t, shop, [
      liveCampaign('Budgeted', [budgeted('Capped', { maxGifts: 10 })], { budget: { maxGifts: 50, window: 'month' } }),
    ]);
    const campaign = await read(shop, campaignId);
    expect(campaign.budget).toEqual({ maxGifts: 50, window: 'month' });
    expect((campaign.rules[0]?.options as Record<string, unknown>).budget).toEqual({ maxGifts: 10, window: 'total' });
    // The merchant's view says what the current windows used.
    expect(campaign.budgetUsage).toEqual({
      campaign: { used: 0, maxGifts: 50, window: 'month', windowStart: '2026-03-01', spent: false },
      rules: { [campaign.rules[0]?.id as string]: { used: 0, maxGifts: 10, window: 'total', windowStart: '1970-01-01', spent: false } },
    });
    // API clients get SPEC's shape plus the stored budget, never the usage.
    const viaApi = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign as Record<string, unknown>;
    expect(viaApi.budget).toEqual({ maxGifts: 50, window: 'month' });
    expect(viaApi).not.toHaveProperty('budgetUsage');
    const list = (await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).json().campaigns as Array<Record<string, unknown>>;
    expect(list[0]).not.toHaveProperty('budget');
  });

  it('a campaign without a budget reads back without the field', async () => {
    const [plain = ''] = await importCampaigns(t, other, [liveCampaign('Plain', [rule('r', { type: 'cart.item_count_gte', value: 1 })])]);
    const campaign = await read(other, plain);
    expect(campaign).not.toHaveProperty('budget');
    expect(campaign).not.toHaveProperty('budgetUsage');
  });

  it('PUT replaces the budget: absent removes it, a new one is stored', async () => {
    const removed = await put(shop, campaignId, ({ budget: _budget, ...body }) => body);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().campaign).not.toHaveProperty('budget');
    const set = await put(shop, campaignId, (body) => ({ ...body, budget: { maxGifts: 7, window: 'week' } }));
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().campaign.budget).toEqual({ maxGifts: 7, window: 'week' });
    expect((await read(shop, campaignId)).budget).toEqual({ maxGifts: 7, window: 'week' });
  });

  it.each([
    ['maxGifts 0', { maxGifts: 0 }, 'maxGifts'],
    ['a fractional maxGifts', { maxGifts: 1.5 }, 'maxGifts'],
    ['maxGifts above 1,000,000,000', { maxGifts: 1_000_000_001 }, 'maxGifts'],
    ['an unknown window', { maxGifts: 5, window: 'year' }, 'window'],
  ])('import rejects %s with 400 and its path, on a rule and on a campaign', async (_name, budget, field) => {
    const onRule = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Bad', [budgeted('Bad', budget)])] },
    });
    expect(onRule.statusCode).toBe(400);
    expect(onRule.json()).toMatchObject({ error: 'Invalid request body', path: ['campaigns', 0, 'rules', 0, 'options', 'budget', field] });
    const onCampaign = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Bad', [], { budget })] },
    });
    expect(onCampaign.statusCode).toBe(400);
    expect(onCampaign.json()).toMatchObject({ error: 'Invalid request body', path: ['campaigns', 0, 'budget', field] });
  });

  it('PUT rejects a bad budget with its path and changes nothing', async () => {
    const res = await put(shop, campaignId, (body) => ({ ...body, budget: { maxGifts: -1 } }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path: ['budget', 'maxGifts'] });
    expect((await read(shop, campaignId)).budget).toEqual({ maxGifts: 7, window: 'week' });
  });
});

describe('intake against a rule budget', () => {
  let campaignId: string;
  let capped: string;
  let free: string;

  beforeAll(async () => {
    [campaignId = ''] = await importCampaigns(t, shop, [
      liveCampaign('Three mugs', [budgeted('Capped', { maxGifts: 3 }), rule('Free', { type: 'cart.item_count_gte', value: 1 }, { gifts: [901] })]),
    ]);
    const campaign = await read(shop, campaignId);
    [capped = '', free = ''] = campaign.rules.map((r) => r.id);
  });

  it('counts granted units; the order that passes the budget gets only what is left, the rest is reported over budget', async () => {
    const first = order({ completedAt: '2026-03-10T09:00:00.000Z', lines: [{}, gift(campaignId, capped, 2), gift(campaignId, free, 5)] });
    expect((await postOrder(t, shop.id, first)).json()).toEqual({ ok: true, duplicate: false });
    expect(await counter(shop.id, 'rule', capped)).toEqual([{ windowStart: '1970-01-01', used: 2 }]);
    // A rule without a budget has no counter.
    expect(await counter(shop.id, 'rule', free)).toEqual([]);
    expect((await converted(first.id))?.overBudget).toEqual([]);
    expect(await ruleIdsOf(shop)).toContain(capped);

    const etag = await etagOf(t, shop);
    const second = order({ completedAt: '2026-03-10T10:00:00.000Z', lines: [gift(campaignId, capped, 2)] });
    expect((await postOrder(t, shop.id, second)).json()).toEqual({ ok: true, duplicate: false });
    expect(await counter(shop.id, 'rule', capped)).toEqual([{ windowStart: '1970-01-01', used: 3 }]);
    const overBudget = [{ ruleId: capped, campaignId, quantity: 1 }];
    expect((await converted(second.id))?.overBudget).toEqual(overBudget);
    const [row] = await t.ctx.db.select().from(orders).where(and(eq(orders.shopId, shop.id), eq(orders.id, second.id)));
    expect(row?.overBudget).toEqual(overBudget);
    // Analytics count what the orders carried: 2 + 5 + 2.
    const [stats] = await t.ctx.db
      .select()
      .from(dailyCampaignStats)
      .where(and(eq(dailyCampaignStats.shopId, shop.id), eq(dailyCampaignStats.campaignId, campaignId)));
    expect(stats?.giftsGiven).toBe(9);

    // Spent: the rule leaves GET /rules (new ETag) and /evaluate; its sibling stays.
    expect(await etagOf(t, shop)).not.toBe(etag);
    const ids = await ruleIdsOf(shop);
    expect(ids).not.toContain(capped);
    expect(ids).toContain(free);
    const evaluation = await evaluationOf(t, shop, cartOf([line({ quantity: 2 })]));
    expect(evaluation.results.map((r) => r.ruleId)).not.toContain(capped);
    expect((await read(shop, campaignId)).budgetUsage?.rules).toEqual({
      [capped]: { used: 3, maxGifts: 3, window: 'total', windowStart: '1970-01-01', spent: true },
    });
  });

  it('a duplicate order changes no counter; a later order is wholly over budget', async () => {
    const again = order({ id: 'budget-dup', completedAt: '2026-03-10T11:00:00.000Z', lines: [gift(campaignId, capped, 4)] });
    expect((await postOrder(t, shop.id, again)).json()).toEqual({ ok: true, duplicate: false });
    expect((await postOrder(t, shop.id, again)).json()).toEqual({ ok: true, duplicate: true });
    expect(await counter(shop.id, 'rule', capped)).toEqual([{ windowStart: '1970-01-01', used: 3 }]);
    expect((await converted('budget-dup'))?.overBudget).toEqual([{ ruleId: capped, campaignId, quantity: 4 }]);
  });

  it('raising maxGifts brings the rule back; lowering it below what was used takes it out again', async () => {
    const raise = await put(shop, campaignId, (body) => ({
      ...body,
      rules: (body.rules as Array<Record<string, unknown>>).map((r) =>
        r.id === capped ? { ...r, options: { ...(r.options as object), budget: { maxGifts: 5 } } } : r,
      ),
    }));
    expect(raise.statusCode, raise.body).toBe(200);
    expect(await ruleIdsOf(shop)).toContain(capped);
    const lower = await put(shop, campaignId, (body) => ({
      ...body,
      rules: (body.rules as Array<Record<string, unknown>>).map((r) =>
        r.id === capped ? { ...r, options: { ...(r.options as object), budget: { maxGifts: 2 } } } : r,
      ),
    }));
    expect(lower.statusCode, lower.body).toBe(200);
    expect(await ruleIdsOf(shop)).not.toContain(capped);
  });
});

describe('intake against a campaign budget', () => {
  it('counts every rule of the campaign; once spent all its rules leave /rules; another shop is untouched', async () => {
    const [campaignId = ''] = await importCampaigns(t, shop, [
      liveCampaign('Shared', [rule('A', { type: 'cart.item_count_gte', value: 1 }), rule('B', { type: 'cart.item_count_gte', value: 1 }, { gifts: [902] })], {
        budget: { maxGifts: 4, window: 'total' },
      }),
    ]);
    const [a = '', b = ''] = (await read(shop, campaignId)).rules.map((r) => r.id);
    const [theirs = ''] = await importCampaigns(t, other, [liveCampaign('Theirs', [rule('T', { type: 'cart.item_count_gte', value: 1 })], { budget: { maxGifts: 1 } })]);
    const theirRule = (await read(other, theirs)).rules[0]?.id as string;
    const otherBefore = await ruleIdsOf(other);

    // Another shop's ids in this shop's order count nowhere.
    const foreign = order({ completedAt: '2026-03-10T09:00:00.000Z', lines: [gift(theirs, theirRule, 3)] });
    expect((await postOrder(t, shop.id, foreign)).statusCode).toBe(200);
    expect(await counter(other.id, 'campaign', theirs)).toEqual([]);
    expect(await counter(shop.id, 'campaign', theirs)).toEqual([]);

    const both = order({ completedAt: '2026-03-10T09:30:00.000Z', lines: [gift(campaignId, a, 1), gift(campaignId, b, 2)] });
    await postOrder(t, shop.id, both);
    expect(await counter(shop.id, 'campaign', campaignId)).toEqual([{ windowStart: '1970-01-01', used: 3 }]);
    expect(await ruleIdsOf(shop)).toEqual(expect.arrayContaining([a, b]));
    const past = order({ completedAt: '2026-03-10T09:45:00.000Z', lines: [gift(campaignId, a, 2), gift(campaignId, b, 1)] });
    await postOrder(t, shop.id, past);
    expect(await counter(shop.id, 'campaign', campaignId)).toEqual([{ windowStart: '1970-01-01', used: 4 }]);
    // Rules in id order take what is left: the first gets 1 of its 2, the second none.
    const [first, second] = [a, b].sort();
    const units = { [a]: 2, [b]: 1 };
    expect((await converted(past.id))?.overBudget).toEqual([
      { ruleId: first, campaignId, quantity: (units[first as string] ?? 0) - 1 },
      { ruleId: second, campaignId, quantity: units[second as string] },
    ]);
    const ids = await ruleIdsOf(shop);
    expect(ids).not.toContain(a);
    expect(ids).not.toContain(b);
    expect(await ruleIdsOf(other)).toEqual(otherBefore);
    expect(otherBefore).toContain(theirRule);
  });
});
