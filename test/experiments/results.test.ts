/**
 * Issue 23: an experiment's per-variant results (GET …/experiments/:id/results) from storefront
 * events and orders posted through the app, and the start's warnings in words (rules with
 * different conditions, a holdout). Happy, error and cross-shop cases.
 */
import { assignVariant } from '@gcrs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Experiment = { id: string; variants: Array<{ id: string; name: string; ruleId: string; weight: number }> };

const everyone = { type: 'cart.subtotal_gte', value: 5000 };
const vip = { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }, { type: 'customer.tag_in', value: ['VIP'] }] };

async function setup(rules = [rule('Mug', everyone), rule('Tote', { value: 5000, type: 'cart.subtotal_gte' })]) {
  const shop = await t.createShop('scale');
  const [campaignId] = await importCampaigns(t, shop, [campaign('AB', { enabled: true, isDraft: false, rules })]);
  const ruleIds = (await readCampaign(t, shop, campaignId as string)).rules.map((r) => r.id);
  return { shop, campaignId: campaignId as string, ruleIds };
}

const base = (shopId: string, campaignId: string) => `/admin/v1/shops/${shopId}/campaigns/${campaignId}/experiments`;
const start = (shop: TestShop, campaignId: string, ruleIds: string[], primaryMetric = 'conversion_rate') =>
  t.admin({
    method: 'POST',
    url: base(shop.id, campaignId),
    payload: { primaryMetric, variants: ruleIds.map((ruleId, i) => ({ name: `V${i}`, ruleId, weight: 1 })) },
  });
const results = (shopId: string, campaignId: string, experimentId: string) =>
  t.admin({ method: 'GET', url: `${base(shopId, campaignId)}/${experimentId}/results` });

/** `count` visitor ids the storefront's hash puts in each variant of `experiment`. */
function visitorsByVariant(experiment: Experiment, count: number): Map<string, string[]> {
  const buckets = new Map(experiment.variants.map((variant) => [variant.id, [] as string[]]));
  for (let i = 0; [...buckets.values()].some((ids) => ids.length < count); i += 1) {
    const id = `visitor-${i}`;
    const bucket = buckets.get(assignVariant(experiment, id)?.id ?? '');
    if (bucket && bucket.length < count) bucket.push(id);
  }
  return buckets;
}

const giftAdded = (shopId: string, campaignId: string, ruleId: string, visitorId?: string) =>
  t.admin({
    method: 'POST',
    url: `/admin/v1/shops/${shopId}/events`,
    payload: {
      ...(visitorId ? { visitorId } : {}),
      events: [{ type: 'gift_added', campaignId, ruleId, variantId: 'gid://shopify/ProductVariant/1' }],
    },
  });

describe('GET …/experiments/:experimentId/results', () => {
  it('counts visitors by the storefront hash, gift adds and orders per variant, and names the leader with its p-value', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const [ruleA, ruleB] = ruleIds as [string, string];
    // An order before the experiment: not counted.
    expect((await postOrder(t, shop.id, order({ total: 9900, lines: [{ price: 9900 }, { gift: { campaignId, ruleId: ruleA } }] }))).statusCode).toBe(200);
    const started = await start(shop, campaignId, [ruleA, ruleB]);
    expect(started.statusCode, started.body).toBe(201);
    const experiment = started.json().experiment as Experiment;
    const [variantA, variantB] = experiment.variants as [Experiment['variants'][number], Experiment['variants'][number]];

    const buckets = visitorsByVariant(experiment, 10);
    for (const [variantId, ids] of buckets) {
      const ruleId = variantId === variantA.id ? ruleA : ruleB;
      for (const id of ids) expect((await giftAdded(shop.id, campaignId, ruleId, id)).json()).toEqual({ ok: true, count: 1 });
    }
    // A second add by one visitor is a second gift add but the same visitor; an add without a visitor id counts no visitor.
    await giftAdded(shop.id, campaignId, ruleA, buckets.get(variantA.id)?.[0]);
    await giftAdded(shop.id, campaignId, ruleA);

    const now = new Date().toISOString();
    const gift = (ruleId: string) => ({ gift: { campaignId, ruleId } });
    const bodies = [
      ...Array.from({ length: 5 }, () => order({ completedAt: now, total: 5000, lines: [{ price: 5000 }, gift(ruleA)] })),
      // Two gift lines of one rule: one order.
      order({ completedAt: now, total: 5000, lines: [{ price: 5000 }, gift(ruleA), gift(ruleA)] }),
      order({ completedAt: now, total: 5000, lines: [{ price: 5000 }, gift(ruleB)] }),
      order({ completedAt: now, total: 9000, lines: [{ price: 9000 }, gift(ruleB)] }),
      // No gift line: no variant to attribute it to.
      order({ completedAt: now, total: 7000 }),
    ];
    for (const body of bodies) expect((await postOrder(t, shop.id, body)).statusCode).toBe(200);

    const res = await results(shop.id, campaignId, experiment.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().results;
    expect(body).toMatchObject({ experimentId: experiment.id, status: 'running', primaryMetric: 'conversion_rate', currency: 'USD', warnings: [] });
    expect(body.variants).toEqual([
      {
        variantId: variantA.id, name: 'V0', ruleId: ruleA, weight: 1,
        visitors: 10, giftAdds: 12, orders: 6, revenue: 300, conversionRate: 0.6, revenuePerVisitor: 30, averageOrderValue: 50, pValueVsLeader: null,
      },
      {
        variantId: variantB.id, name: 'V1', ruleId: ruleB, weight: 1,
        visitors: 10, giftAdds: 10, orders: 2, revenue: 140, conversionRate: 0.2, revenuePerVisitor: 14, averageOrderValue: 70, pValueVsLeader: 0.067889,
      },
    ]);
    // 6/10 against 2/10: z 1.826, p 0.0679 — A leads, not yet significantly.
    expect(body.leader).toEqual({ variantId: variantA.id, significant: false, pValue: 0.067889, threshold: 0.05 });
    // From B's 20 % to 22 % at 5 % / 80 %: 6,510 visitors per variant, 10 seen.
    expect(body.sampleSize).toEqual({
      alpha: 0.05, power: 0.8, minimumDetectableEffect: 0.1, unit: 'visitors', neededPerVariant: 6510, remainingPerVariant: 6500,
    });
  });

  it('reads average order value as the primary metric: B leads on the money metric', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const [ruleA, ruleB] = ruleIds as [string, string];
    const experiment = (await start(shop, campaignId, [ruleA, ruleB], 'average_order_value')).json().experiment as Experiment;
    const now = new Date().toISOString();
    for (const [ruleId, total] of [[ruleA, 4000], [ruleA, 6000], [ruleB, 9000], [ruleB, 11000]] as const) {
      await postOrder(t, shop.id, order({ completedAt: now, total, lines: [{ price: total }, { gift: { campaignId, ruleId } }] }));
    }
    const body = (await results(shop.id, campaignId, experiment.id)).json().results;
    expect(body.variants.map((v: { averageOrderValue: number; visitors: number; conversionRate: null }) => [v.averageOrderValue, v.visitors, v.conversionRate])).toEqual([
      [50, 0, null],
      [100, 0, null],
    ]);
    // Means 50 and 100, each with variance 200 (in dollars): z = 50 / √(200/2 · 2) = 3.5355, p 0.000407.
    expect(body.leader).toMatchObject({ variantId: experiment.variants[1]?.id, significant: true, pValue: 0.000407 });
    expect(body.sampleSize).toMatchObject({ unit: 'orders', remainingPerVariant: expect.any(Number) });
  });

  it('has no leader and no p-values before any data, and stays at the stop time once stopped', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const experiment = (await start(shop, campaignId, ruleIds)).json().experiment as Experiment;
    const stopped = await t.admin({ method: 'POST', url: `${base(shop.id, campaignId)}/${experiment.id}/stop` });
    const stoppedAt = stopped.json().experiment.stoppedAt as string;
    // After the stop: neither the visitor nor the order counts.
    const [visitor] = visitorsByVariant(experiment, 1).get(experiment.variants[0]?.id ?? '') ?? [];
    await giftAdded(shop.id, campaignId, ruleIds[0] as string, visitor);
    const later = new Date(Date.parse(stoppedAt) + 60_000).toISOString();
    await postOrder(t, shop.id, order({ completedAt: later, total: 5000, lines: [{ price: 5000 }, { gift: { campaignId, ruleId: ruleIds[0] as string } }] }));
    const body = (await results(shop.id, campaignId, experiment.id)).json().results;
    expect(body).toMatchObject({ status: 'stopped', to: stoppedAt, leader: null });
    expect(body.variants.every((v: { visitors: number; orders: number; pValueVsLeader: null }) => v.visitors === 0 && v.orders === 0 && v.pValueVsLeader === null)).toBe(true);
    expect(body.sampleSize).toMatchObject({ neededPerVariant: null, remainingPerVariant: null });
  });

  it('answers 404 for an unknown experiment or campaign, and for another shop’s experiment', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const experiment = (await start(shop, campaignId, ruleIds)).json().experiment as Experiment;
    const missing = await results(shop.id, campaignId, 'exp_missing');
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'Experiment not found']);
    const noCampaign = await results(shop.id, 'cmp_missing', experiment.id);
    expect([noCampaign.statusCode, noCampaign.json().error]).toEqual([404, 'Campaign not found']);
    const other = await t.createShop('scale');
    const crossShop = await results(other.id, campaignId, experiment.id);
    expect(crossShop.statusCode).toBe(404);
    expect(crossShop.json().error).toBe('Campaign not found');
    // A campaign of the other shop does not open this shop's experiment either.
    const [otherCampaign] = await importCampaigns(t, other, [campaign('Theirs')]);
    const mixed = await results(other.id, otherCampaign as string, experiment.id);
    expect([mixed.statusCode, mixed.json().error]).toEqual([404, 'Experiment not found']);
  });
});

describe('POST …/experiments warnings (additive)', () => {
  it('says in words that rules with different conditions withdraw the gift from some shoppers', async () => {
    const { shop, campaignId, ruleIds } = await setup([rule('Everyone', everyone), rule('VIP only', vip)]);
    const res = await start(shop, campaignId, ruleIds);
    expect(res.statusCode, res.body).toBe(201);
    const { warnings } = res.json() as { warnings: Array<{ code: string; message: string; ruleIds: string[] }> };
    expect(warnings).toEqual([{ code: 'different_audiences', ruleIds, message: expect.stringContaining('The rules “Everyone” and “VIP only” have different conditions') }]);
    expect(warnings[0]?.message).toContain('gets no gift from this campaign');
    const experimentId = res.json().experiment.id as string;
    expect((await results(shop.id, campaignId, experimentId)).json().results.warnings).toEqual(warnings);
  });

  it('names a variant whose rule is disabled a holdout; equal conditions in another key order warn nothing', async () => {
    const off = { ...rule('Nothing', everyone), enabled: false };
    const { shop, campaignId, ruleIds } = await setup([rule('Mug', everyone), rule('Tote', { value: 5000, type: 'cart.subtotal_gte' }), off]);
    const same = await start(shop, campaignId, ruleIds.slice(0, 2));
    expect(same.json().warnings).toEqual([]);
    await t.admin({ method: 'POST', url: `${base(shop.id, campaignId)}/${same.json().experiment.id}/stop` });
    const holdout = await start(shop, campaignId, [ruleIds[0] as string, ruleIds[2] as string]);
    expect(holdout.statusCode).toBe(201);
    expect(holdout.json().warnings).toEqual([
      { code: 'holdout', ruleIds: [ruleIds[2]], message: expect.stringMatching(/^Variant “V1” is a holdout: its rule “Nothing” is disabled/) },
    ]);
  });
});
