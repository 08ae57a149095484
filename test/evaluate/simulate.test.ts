/**
 * POST /admin/v1/shops/:shopId/simulate (CONTRACT "Admin API"): /evaluate's answer for a
 * stored campaign in any state, an inline campaign after plan stripping, or the whole shop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCampaigns, readCampaign, startExperiment } from '../rules/helpers.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluationOf, line, liveCampaign, resultOf, rule, simulate } from './helpers.ts';
import type { Evaluation } from './helpers.ts';

const spend = (value: number) => ({ type: 'cart.subtotal_gte', value });
const vipOnly = { type: 'customer.tag_in', value: ['vip'] };

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let draftId: string;
let draftRules: string[];
let disabledRules: string[];
let liveRules: string[];

async function simulated(shopId: string, body: unknown): Promise<Evaluation> {
  const res = await simulate(t, shopId, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Evaluation;
}

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  const ids = await importCampaigns(t, shop, [
    liveCampaign('Draft', [rule('Draft spend 10', spend(1000)), rule('Draft disabled', spend(0), { enabled: false })], {
      enabled: false,
      isDraft: true,
    }),
    liveCampaign('Disabled', [rule('Disabled campaign rule', spend(0))], { enabled: false }),
    liveCampaign('Live', [rule('Live rule', spend(0))]),
  ]);
  draftId = ids[0] as string;
  const rulesOf = async (id: string | undefined) => (await readCampaign(t, shop, id as string)).rules.map((r) => r.id);
  draftRules = await rulesOf(ids[0]);
  disabledRules = await rulesOf(ids[1]);
  liveRules = await rulesOf(ids[2]);
});
afterAll(() => t.close());

describe('simulate a stored campaign (campaignId)', () => {
  it("evaluates a draft's rules with traces; a disabled rule is reported as skipped", async () => {
    const evaluation = await simulated(shop.id, { campaignId: draftId, context: cartOf([line({ price: 1500 })]) });
    expect(evaluation.results).toEqual([
      {
        ruleId: draftRules[0],
        campaignId: draftId,
        matched: true,
        reasons: ['subtotal_at_or_above_threshold'],
        trace: { type: 'cart.subtotal_gte', matched: true, reasons: ['subtotal_at_or_above_threshold'] },
      },
      { ruleId: draftRules[1], campaignId: draftId, matched: false, reasons: ['rule_disabled'], trace: null },
    ]);
    expect(evaluation.operations).toMatchObject([{ type: 'add', attributes: { _svc_campaign_id: draftId, _svc_rule_id: draftRules[0] } }]);
  });

  it('sees an edit of the draft at once', async () => {
    const campaign = await readCampaign(t, shop, draftId);
    const edited = {
      ...campaign,
      rules: campaign.rules.map((r, index) => (index === 0 ? { ...r, conditionTree: spend(2000) } : r)),
    };
    const put = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/campaigns/${draftId}`, payload: edited });
    expect(put.statusCode, put.body).toBe(200);
    const evaluation = await simulated(shop.id, { campaignId: draftId, context: cartOf([line({ price: 1500 })]) });
    expect(resultOf(evaluation, draftRules[0] as string)).toMatchObject({ matched: false, reasons: ['subtotal_below_threshold'] });
  });

  it('agrees with /evaluate on a live campaign, experiment assignment included', async () => {
    const abShop = await t.createShop('scale');
    const [id] = await importCampaigns(t, abShop, [liveCampaign('A/B', [rule('A', spend(0)), rule('B', spend(0))])]);
    const ruleIds = (await readCampaign(t, abShop, id as string)).rules.map((r) => r.id);
    await startExperiment(t, abShop, id as string, ruleIds);
    for (const visitorId of ['v-1', 'v-2', 'v-3', 'v-4']) {
      const context = { ...cartOf([line()]), visitorId };
      expect(await simulated(abShop.id, { campaignId: id, context })).toEqual(await evaluationOf(t, abShop, context));
    }
  });

  it('answers 404 for an unknown campaign and for a campaign of another shop', async () => {
    for (const [shopId, campaignId] of [
      [shop.id, 'cmp_missing'],
      [other.id, draftId],
    ] as const) {
      const res = await simulate(t, shopId, { campaignId, context: cartOf([]) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found'));
    }
  });
});

describe('simulate the whole shop (neither campaignId nor campaign)', () => {
  it('evaluates the enabled rules of every campaign, drafts and disabled ones included', async () => {
    const evaluation = await simulated(shop.id, { context: cartOf([line({ price: 5000 })]) });
    expect(evaluation.results.map((r) => r.ruleId)).toEqual([draftRules[0], disabledRules[0], liveRules[0]]);
    expect(evaluation.results.every((r) => r.matched && r.trace !== null)).toBe(true);
  });

  it("never sees another shop's campaigns", async () => {
    expect(await simulated(other.id, { context: cartOf([line({ price: 5000 })]) })).toEqual({ results: [], operations: [] });
  });
});

describe('simulate an inline campaign', () => {
  const inline = (rules: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'Try-out', rules, ...extra });

  it("strips the leaves the shop's plan does not allow, as import would", async () => {
    const free = await t.createShop('free');
    const campaign = inline([
      rule('Spend 10 and VIP', { type: 'AND', children: [spend(1000), vipOnly] }),
      rule('VIP only', vipOnly, { actionType: 'customer_choice', gifts: [901, 902] }),
    ]);
    const context = cartOf([line({ price: 1500 })], { customer: { loggedIn: true, tags: [] } });

    const onFree = await simulated(free.id, { campaign, context });
    expect(onFree.results).toEqual([
      {
        ruleId: 'rul_simulated_0',
        campaignId: 'cmp_simulated',
        matched: true,
        reasons: ['subtotal_at_or_above_threshold'],
        trace: {
          type: 'AND',
          matched: true,
          reasons: ['all_children_matched'],
          children: [{ type: 'cart.subtotal_gte', matched: true, reasons: ['subtotal_at_or_above_threshold'] }],
        },
      },
      // Stripping emptied the root: an empty AND never matches.
      {
        ruleId: 'rul_simulated_1',
        campaignId: 'cmp_simulated',
        matched: false,
        reasons: ['empty_children'],
        trace: { type: 'AND', matched: false, reasons: ['empty_children'], children: [] },
      },
    ]);
    expect(onFree.operations).toMatchObject([{ type: 'add', attributes: { _svc_campaign_id: 'cmp_simulated', _svc_rule_id: 'rul_simulated_0' } }]);

    const onScale = await simulated(shop.id, { campaign, context });
    expect(onScale.results.map((r) => [r.matched, r.reasons])).toEqual([
      [false, ['customer_tag_not_matched']],
      [false, ['customer_tag_not_matched']],
    ]);
  });

  it('stores nothing', async () => {
    const before = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns` })).json().meta.total;
    await simulated(shop.id, { campaign: inline([rule('Any', spend(0))]), context: cartOf([]) });
    expect((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns` })).json().meta.total).toBe(before);
  });

  it('applies the schedule window at `at` (default: now)', async () => {
    const campaign = inline([rule('January 2030', spend(0))], { startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-02-01T00:00:00.000Z' });
    const context = cartOf([line()]);
    expect((await simulated(shop.id, { campaign, context })).results).toEqual([
      { ruleId: 'rul_simulated_0', campaignId: 'cmp_simulated', matched: false, reasons: ['outside_schedule'], trace: null },
    ]);
    const inJanuary = await simulated(shop.id, { campaign, context, at: '2030-01-15T12:00:00.000Z' });
    expect(inJanuary.results).toMatchObject([{ matched: true }]);
  });
});

describe('400 and 404', () => {
  it.each([
    ['campaignId and campaign together', { campaignId: 'cmp_x', campaign: { name: 'x' }, context: cartOf([]) }, ['campaign']],
    ['no context', { campaignId: 'cmp_x' }, ['context']],
    ['a bad context', { context: { cart: { currency: 'dollars', lines: [] } } }, ['context', 'cart', 'currency']],
    ['a bad line', { context: cartOf([line({ quantity: -2 })]) }, ['context', 'cart', 'lines', 0, 'quantity']],
    ['an inline campaign without a name', { campaign: { rules: [] }, context: cartOf([]) }, ['campaign', 'name']],
    [
      'an inline rule with a malformed tree',
      { campaign: { name: 'x', rules: [rule('r', { type: 'cart.sparkle' })] }, context: cartOf([]) },
      ['campaign', 'rules', 0, 'conditionTree', 'type'],
    ],
    ['an unreadable at', { context: cartOf([]), at: 'tomorrow' }, ['at']],
  ])('%s', async (_name, body, path) => {
    const res = await simulate(t, shop.id, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path });
    expect(typeof res.json().issue).toBe('string');
  });

  it('answers 404 for an unknown shop and 401 without the admin token', async () => {
    const missing = await simulate(t, 'shp_missing', { context: cartOf([]) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(errorBody('Shop not found', 'not_found'));
    const anonymous = await t.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/simulate`, payload: { context: cartOf([]) } });
    expect(anonymous.statusCode).toBe(401);
    const withKey = await t.api(shop, { method: 'POST', url: `/admin/v1/shops/${shop.id}/simulate`, payload: { context: cartOf([]) } });
    expect(withKey.statusCode).toBe(401);
  });
});
