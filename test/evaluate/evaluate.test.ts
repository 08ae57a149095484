/**
 * POST /api/v1/evaluate (CONTRACT "Evaluation"): the live rules of GET /rules with a full
 * trace, the cart operations, experiments, shop settings and shop isolation. The 400s and the
 * OpenAPI entry are in evaluate-errors.test.ts.
 */
import { assignVariant } from '@gcrs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCompiledRules } from '../../src/evaluate/live-rules.ts';
import { getShop } from '../../src/shops/store.ts';
import { importCampaigns, payloadOf, readCampaign, startExperiment } from '../rules/helpers.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, evaluationOf, line, liveCampaign, resultOf, rule, variant } from './helpers.ts';

const spend = (value: number) => ({ type: 'cart.subtotal_gte', value });
const giftLine = (id: string, ruleId: string, campaignId: string) =>
  line({ id, productId: '900', variantId: variant(900), price: 0, attributes: { _svc_campaign_id: campaignId, _svc_rule_id: ruleId } });

let clock = new Date();
let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId: string;
let spendRule: string;
let choiceRule: string;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  const [live] = await importCampaigns(t, shop, [
    liveCampaign('Live', [
      rule('Spend 50', spend(5000)),
      rule('Disabled', spend(0), { enabled: false }),
      rule('Choice', { type: 'AND', children: [spend(1000), { type: 'NOT', child: { type: 'discount.code_present' } }] }, {
        actionType: 'customer_choice',
        gifts: [901, 902],
      }),
    ]),
    liveCampaign('Draft', [rule('Draft rule', spend(0))], { enabled: false, isDraft: true }),
    liveCampaign('Disabled', [rule('Disabled campaign rule', spend(0))], { enabled: false }),
    liveCampaign('Ended', [rule('Ended rule', spend(0))], { startAt: '2020-01-01T00:00:00.000Z', endAt: '2020-02-01T00:00:00.000Z' }),
    liveCampaign('Future', [rule('Future rule', spend(0))], { startAt: '2999-01-01T00:00:00.000Z' }),
  ]);
  campaignId = live as string;
  const rules = (await readCampaign(t, shop, campaignId)).rules;
  spendRule = rules[0]?.id as string;
  choiceRule = rules[2]?.id as string;
});
afterAll(() => t.close());

describe('POST /api/v1/evaluate', () => {
  it('evaluates exactly the live rules: drafts, disabled rules and campaigns, and closed windows are left out', async () => {
    const evaluation = await evaluationOf(t, shop, cartOf([line({ price: 6000 })]));
    expect(evaluation.results.map((r) => r.ruleId)).toEqual([spendRule, choiceRule]);
    expect(evaluation.results.every((r) => r.campaignId === campaignId && r.matched)).toBe(true);
    const payload = await payloadOf(t, shop);
    expect(evaluation.results.map((r) => r.ruleId)).toEqual(payload.rules.map((r) => r.id));
  });

  it('gives every rule its full trace, every child evaluated', async () => {
    const evaluation = await evaluationOf(t, shop, cartOf([line({ price: 500 })]));
    expect(resultOf(evaluation, spendRule)).toEqual({
      ruleId: spendRule,
      campaignId,
      matched: false,
      reasons: ['subtotal_below_threshold'],
      trace: { type: 'cart.subtotal_gte', matched: false, reasons: ['subtotal_below_threshold'] },
    });
    // The AND failed on its first child, yet the trace still evaluates the second.
    expect(resultOf(evaluation, choiceRule).trace).toEqual({
      type: 'AND',
      matched: false,
      reasons: ['child_not_matched'],
      children: [
        { type: 'cart.subtotal_gte', matched: false, reasons: ['subtotal_below_threshold'] },
        {
          type: 'NOT',
          matched: true,
          reasons: ['child_inverted'],
          children: [{ type: 'discount.code_present', matched: false, reasons: ['no_discount_code'] }],
        },
      ],
    });
  });

  it('plans add and choose operations with SPEC gift line attributes', async () => {
    const { operations } = await evaluationOf(t, shop, cartOf([line({ price: 6000 })]));
    expect(operations).toEqual([
      {
        type: 'add',
        variantId: variant(900),
        quantity: 1,
        attributes: {
          _svc_campaign_id: campaignId,
          _svc_rule_id: spendRule,
          _svc_auto: 'true',
          _svc_discount_method: 'automatic',
          _svc_title: 'Free gift',
          _svc_lock_quantity: 'true',
        },
      },
      {
        type: 'choose',
        ruleId: choiceRule,
        campaignId,
        options: [
          { variantId: variant(901), quantity: 1 },
          { variantId: variant(902), quantity: 1 },
        ],
        attributes: { _svc_campaign_id: campaignId, _svc_rule_id: choiceRule, _svc_discount_method: 'automatic', _svc_title: 'Free gift' },
      },
    ]);
  });

  it('removes gift lines whose rule no longer matches, and leaves a settled cart alone', async () => {
    const below = await evaluationOf(t, shop, cartOf([line({ price: 500 }), giftLine('line-9', spendRule, campaignId)]));
    expect(below.operations).toEqual([{ type: 'remove', lineId: 'line-9', ruleId: spendRule }]);

    const settled = cartOf([line({ price: 6000 }), giftLine('a', spendRule, campaignId), giftLine('b', choiceRule, campaignId)]);
    expect((await evaluationOf(t, shop, settled)).operations).toEqual([]);

    // Gift lines never count towards a threshold: a zero-priced cart line plus gifts is below it.
    const onlyGifts = await evaluationOf(t, shop, cartOf([giftLine('a', spendRule, campaignId)]));
    expect(onlyGifts.operations).toEqual([{ type: 'remove', lineId: 'a', ruleId: spendRule }]);
  });

  it('reads discount codes, customer and market from the context', async () => {
    const evaluation = await evaluationOf(t, shop, { ...cartOf([line({ price: 6000 })]), cart: { currency: 'USD', lines: [line({ price: 6000 })], discountCodes: ['SAVE'] } });
    expect(resultOf(evaluation, choiceRule)).toMatchObject({ matched: false, reasons: ['discount_code_present'] });
    expect(evaluation.operations.map((o) => o.type)).toEqual(['add']);
  });

  it('answers the same on the admin mount', async () => {
    const context = cartOf([line({ price: 3000 })]);
    expect(await evaluationOf(t, shop, context, 'admin')).toEqual(await evaluationOf(t, shop, context));
  });

  it('counts against the default rate row of 120 per minute', async () => {
    const res = await evaluate(t, shop, cartOf([]));
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
  });

  it('compiles the live payload once and reuses it until the rules change', async () => {
    const record = async () => {
      const found = await getShop(t.ctx.db, shop.id);
      if (!found) throw new Error('shop vanished');
      return found;
    };
    const first = await liveCompiledRules(t.ctx.rulesCache, await record(), 'api');
    await evaluate(t, shop, cartOf([line()]));
    expect(await liveCompiledRules(t.ctx.rulesCache, await record(), 'api')).toBe(first);
    expect(first?.rules.map((r) => r.id)).toEqual([spendRule, choiceRule]);
  });
});

describe('schedule windows by the app clock', () => {
  it('applies a live campaign exactly inside [startAt, endAt)', async () => {
    const windowed = await t.createShop('scale');
    const [id] = await importCampaigns(t, windowed, [
      liveCampaign('January 2030', [rule('Any cart', spend(0))], { startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-02-01T00:00:00.000Z' }),
    ]);
    const ruleId = (await readCampaign(t, windowed, id as string)).rules[0]?.id;
    const now = clock;
    try {
      const at = async (iso: string) => {
        clock = new Date(iso);
        return (await evaluationOf(t, windowed, cartOf([line()]))).results;
      };
      expect(await at('2029-12-31T23:59:59.999Z')).toEqual([]);
      expect(await at('2030-01-01T00:00:00.000Z')).toMatchObject([{ ruleId, matched: true }]);
      expect(await at('2030-01-31T23:59:59.999Z')).toMatchObject([{ ruleId, matched: true }]);
      expect(await at('2030-02-01T00:00:00.000Z')).toEqual([]);
    } finally {
      clock = now;
    }
  });
});

describe('experiments', () => {
  it('applies only the variant a visitor is assigned to, the same one every time', async () => {
    const abShop = await t.createShop('scale');
    const [id] = await importCampaigns(t, abShop, [
      liveCampaign('A/B', [rule('Variant A', spend(0)), rule('Variant B', spend(0)), rule('Outside', spend(0))]),
    ]);
    const [a, b, outside] = (await readCampaign(t, abShop, id as string)).rules.map((r) => r.id);
    await startExperiment(t, abShop, id as string, [a as string, b as string]);
    const [experiment] = (await payloadOf(t, abShop)).experiments ?? [];
    if (!experiment) throw new Error('no running experiment in the payload');

    const seen = new Set<string>();
    for (let n = 0; n < 40 && seen.size < 2; n += 1) {
      const visitorId = `visitor-${n}`;
      const assigned = assignVariant(experiment, visitorId)?.ruleId;
      const first = await evaluationOf(t, abShop, { ...cartOf([line()]), visitorId });
      expect(await evaluationOf(t, abShop, { ...cartOf([line()]), visitorId })).toEqual(first);
      for (const ruleId of [a, b]) {
        const result = resultOf(first, ruleId as string);
        if (ruleId === assigned) expect(result).toMatchObject({ matched: true, trace: { matched: true } });
        else expect(result).toEqual({ ruleId, campaignId: id, matched: false, reasons: ['experiment_variant_not_assigned'], trace: null });
      }
      expect(resultOf(first, outside as string).matched).toBe(true);
      expect(first.operations.filter((o) => o.type === 'add').map((o) => o.attributes._svc_rule_id)).toEqual([assigned, outside]);
      seen.add(assigned as string);
    }
    expect(seen).toEqual(new Set([a, b]));

    const anonymous = await evaluationOf(t, abShop, cartOf([line()]));
    expect(resultOf(anonymous, assignVariant(experiment, undefined)?.ruleId as string).matched).toBe(true);
  });
});

describe('shop currency and settings', () => {
  it("resolves thresholds in the shop's currency and honours useDiscountedPrices", async () => {
    const euroShop = await t.createShop('scale', { currency: 'EUR' });
    const [id] = await importCampaigns(t, euroShop, [liveCampaign('Euro', [rule('Spend 50 EUR', spend(5000))])]);
    const ruleId = (await readCampaign(t, euroShop, id as string)).rules[0]?.id as string;
    const cart = (currency: string) => ({ cart: { currency, lines: [line({ price: 3000, discountedPrice: 2000, quantity: 2 })] } });

    expect(resultOf(await evaluationOf(t, euroShop, cart('EUR')), ruleId)).toMatchObject({ matched: true });
    expect(resultOf(await evaluationOf(t, euroShop, cart('USD')), ruleId)).toMatchObject({
      matched: false,
      reasons: ['foreign_currency_no_override'],
    });

    const patched = await t.admin({
      method: 'PATCH',
      url: `/admin/v1/shops/${euroShop.id}`,
      payload: { settings: { engine: { useDiscountedPrices: true } } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(resultOf(await evaluationOf(t, euroShop, cart('EUR')), ruleId)).toMatchObject({
      matched: false,
      reasons: ['subtotal_below_threshold'],
    });
  });
});

describe('shop isolation', () => {
  it("never evaluates another shop's rules", async () => {
    const context = cartOf([line({ price: 6000 })]);
    expect(await evaluationOf(t, other, context)).toEqual({ results: [], operations: [] });
    expect(await evaluationOf(t, other, context, 'admin')).toEqual({ results: [], operations: [] });

    const [id] = await importCampaigns(t, other, [liveCampaign('Other', [rule('Other rule', spend(0))])]);
    const evaluation = await evaluationOf(t, other, context);
    expect(evaluation.results.map((r) => r.campaignId)).toEqual([id]);
    expect((await evaluationOf(t, shop, context)).results.map((r) => r.campaignId)).toEqual([campaignId, campaignId]);
  });

  it('answers 404 for an unknown shop on the admin mount', async () => {
    const res = await t.admin({ method: 'POST', url: '/admin/v1/shops/shp_missing/evaluate', payload: cartOf([]) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Shop not found', 'not_found'));
  });
});
