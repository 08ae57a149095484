/**
 * The experiment routes of the admin API: starting one (var_ ids, every plan, 409 while one
 * runs, one winner of two concurrent starts on PostgreSQL, 400s, another campaign's rule, 404s,
 * the admin token), stopping and concluding it, and listing a campaign's experiments. Campaign
 * PUTs while one runs are in experiment-rule-edits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { ISO_MS, experimentSteps, variants } from './experiment-fixtures.ts';
import type { Experiment } from './experiment-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { setup, base, start, stop, conclude } = experimentSteps(() => t);


describe('POST …/experiments (start)', () => {
  it('starts a running experiment with var_ ids, shown on the campaign GET', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const res = await start(shop, campaignId, { primaryMetric: 'revenue_per_visitor', variants: variants(ruleIds.slice(0, 2)) });
    expect(res.statusCode, res.body).toBe(201);
    const experiment = res.json().experiment as Experiment;
    expect(experiment).toMatchObject({
      status: 'running',
      primaryMetric: 'revenue_per_visitor',
      stoppedAt: null,
      concludedAt: null,
      winnerVariantId: null,
    });
    expect(experiment.id).toMatch(/^exp_/);
    expect(experiment.startedAt).toMatch(ISO_MS);
    expect(experiment.variants).toEqual([
      { id: expect.stringMatching(/^var_/), name: 'V0', ruleId: ruleIds[0], weight: 10 },
      { id: expect.stringMatching(/^var_/), name: 'V1', ruleId: ruleIds[1], weight: 20 },
    ]);
    const shown = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` });
    expect(shown.json().campaign.experiment).toEqual(experiment);
  });

  it('works for every plan through the admin API', async () => {
    const { shop, campaignId, ruleIds } = await setup('pro');
    expect((await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).statusCode).toBe(201);
  });

  it('answers 409 while the campaign already has a running experiment', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const first = await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds.slice(0, 2)) });
    expect(first.statusCode).toBe(201);
    const second = await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds.slice(1)) });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ experimentId: first.json().experiment.id });
    expect(typeof second.json().error).toBe('string');
  });

  it.skipIf(testDbKind() !== 'postgres')(`${POSTGRES_ONLY}lets exactly one of two concurrent starts win`, async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const body = { primaryMetric: 'conversion_rate', variants: variants(ruleIds.slice(0, 2)) };
    const results = await Promise.all([start(shop, campaignId, body), start(shop, campaignId, body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('starts a new experiment once the running one is stopped', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const first = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds.slice(0, 2)) })).json()
      .experiment as Experiment;
    expect((await stop(shop, campaignId, first.id)).statusCode).toBe(200);
    expect((await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).statusCode).toBe(201);
  });

  it.each([
    ['one variant', (ids: string[]) => ({ primaryMetric: 'conversion_rate', variants: variants(ids.slice(0, 1)) }), ['variants']],
    ['no variants', () => ({ primaryMetric: 'conversion_rate', variants: [] }), ['variants']],
    ['an unknown metric', (ids: string[]) => ({ primaryMetric: 'clicks', variants: variants(ids) }), ['primaryMetric']],
    [
      'a zero weight',
      (ids: string[]) => ({ primaryMetric: 'conversion_rate', variants: [...variants(ids.slice(0, 1)), { name: 'z', ruleId: ids[1], weight: 0 }] }),
      ['variants', 1, 'weight'],
    ],
    [
      'a fractional weight',
      (ids: string[]) => ({ primaryMetric: 'conversion_rate', variants: [...variants(ids.slice(0, 1)), { name: 'z', ruleId: ids[1], weight: 1.5 }] }),
      ['variants', 1, 'weight'],
    ],
    [
      'the same rule twice',
      (ids: string[]) => ({ primaryMetric: 'conversion_rate', variants: [...variants(ids.slice(0, 2)), { name: 'again', ruleId: ids[0], weight: 1 }] }),
      ['variants', 2, 'ruleId'],
    ],
    [
      'a rule of no campaign',
      (ids: string[]) => ({ primaryMetric: 'conversion_rate', variants: [...variants(ids.slice(0, 1)), { name: 'x', ruleId: 'rul_nope', weight: 1 }] }),
      ['variants', 1, 'ruleId'],
    ],
    ['an unknown key', (ids: string[]) => ({ primaryMetric: 'conversion_rate', variants: variants(ids), extra: 1 }), []],
  ] as const)('rejects %s with 400 and its path', async (_name, body, path) => {
    const { shop, campaignId, ruleIds } = await setup();
    const res = await start(shop, campaignId, body(ruleIds));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path });
  });

  it('rejects a rule of another campaign of the same shop', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const [otherId] = await importCampaigns(t, shop, [campaign('Other', { rules: [rule('o')] })]);
    const otherRule = (await readCampaign(t, shop, otherId as string)).rules[0]?.id;
    const res = await start(shop, campaignId, {
      primaryMetric: 'conversion_rate',
      variants: [...variants(ruleIds.slice(0, 1)), { name: 'x', ruleId: otherRule, weight: 1 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().path).toEqual(['variants', 1, 'ruleId']);
  });

  it('answers 404 for an unknown campaign, an unknown shop, and a campaign of another shop', async () => {
    const { shop, ruleIds } = await setup();
    const other = await setup();
    const body = { primaryMetric: 'conversion_rate', variants: variants(ruleIds.slice(0, 2)) };
    const unknownCampaign = await start(shop, 'cmp_nope', body);
    expect(unknownCampaign.statusCode).toBe(404);
    expect(unknownCampaign.json()).toEqual(errorBody('Campaign not found', 'not_found'));
    const unknownShop = await start('shp_nope', 'cmp_nope', body);
    expect(unknownShop.statusCode).toBe(404);
    expect(unknownShop.json()).toEqual(errorBody('Shop not found', 'not_found'));
    const crossShop = await start(shop, other.campaignId, { primaryMetric: 'conversion_rate', variants: variants(other.ruleIds) });
    expect(crossShop.statusCode).toBe(404);
    expect(crossShop.json()).toEqual(errorBody('Campaign not found', 'not_found'));
  });

  it('needs the admin token', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const res = await t.app.inject({
      method: 'POST',
      url: base(shop, campaignId),
      headers: { authorization: `Bearer ${shop.key}` },
      payload: { primaryMetric: 'conversion_rate', variants: variants(ruleIds) },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('stop and conclude', () => {
  it('stops a running experiment; the campaign then shows none; stopping again is 409', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const experiment = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).json()
      .experiment as Experiment;
    const res = await stop(shop, campaignId, experiment.id);
    expect(res.statusCode).toBe(200);
    const stopped = res.json().experiment as Experiment;
    expect(stopped).toMatchObject({ id: experiment.id, status: 'stopped', concludedAt: null, winnerVariantId: null });
    expect(stopped.stoppedAt).toMatch(ISO_MS);
    expect((await readCampaign(t, shop, campaignId)).experiment).toBeNull();

    const again = await stop(shop, campaignId, experiment.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: 'stopped' });
  });

  it('concludes a stopped experiment with its winner, keeping stoppedAt', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const experiment = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).json()
      .experiment as Experiment;
    const stopped = (await stop(shop, campaignId, experiment.id)).json().experiment as Experiment;
    const winner = experiment.variants[1]?.id;
    const res = await conclude(shop, campaignId, experiment.id, winner);
    expect(res.statusCode).toBe(200);
    const concluded = res.json().experiment as Experiment;
    expect(concluded).toMatchObject({ status: 'concluded', winnerVariantId: winner, stoppedAt: stopped.stoppedAt });
    expect(concluded.concludedAt).toMatch(ISO_MS);
    const again = await conclude(shop, campaignId, experiment.id, winner);
    expect(again.statusCode).toBe(409);
    expect((await stop(shop, campaignId, experiment.id)).statusCode).toBe(409);
  });

  it('concludes a running experiment directly, stopping it at the same instant', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const experiment = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).json()
      .experiment as Experiment;
    const res = await conclude(shop, campaignId, experiment.id, experiment.variants[0]?.id);
    expect(res.statusCode).toBe(200);
    const concluded = res.json().experiment as Experiment;
    expect(concluded.status).toBe('concluded');
    expect(concluded.stoppedAt).toBe(concluded.concludedAt);
    expect((await readCampaign(t, shop, campaignId)).experiment).toBeNull();
  });

  it('rejects a winner that is not a variant of the experiment with 400', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const experiment = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).json()
      .experiment as Experiment;
    for (const winner of ['var_nope', 42, undefined]) {
      const res = await conclude(shop, campaignId, experiment.id, winner);
      expect(res.statusCode).toBe(400);
      expect(res.json().path).toEqual(['winnerVariantId']);
    }
  });

  it('answers 404 for an unknown experiment, and for one of another campaign or shop', async () => {
    const mine = await setup();
    const other = await setup();
    const theirs = (await start(other.shop, other.campaignId, { primaryMetric: 'conversion_rate', variants: variants(other.ruleIds) })).json()
      .experiment as Experiment;
    const cases = [
      stop(mine.shop, mine.campaignId, 'exp_nope'),
      stop(mine.shop, other.campaignId, theirs.id),
      stop(mine.shop, mine.campaignId, theirs.id),
      conclude(mine.shop, mine.campaignId, theirs.id, theirs.variants[0]?.id),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Experiment not found', 'not_found'));
    }
    // The other shop's experiment is untouched.
    expect((await readCampaign(t, other.shop, other.campaignId)).experiment?.status).toBe('running');
  });

  it('lists every experiment of a campaign, newest first', async () => {
    const { shop, campaignId, ruleIds } = await setup();
    const first = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).json().experiment as Experiment;
    await stop(shop, campaignId, first.id);
    const second = (await start(shop, campaignId, { primaryMetric: 'conversion_rate', variants: variants(ruleIds) })).json().experiment as Experiment;
    const res = await t.admin({ method: 'GET', url: base(shop, campaignId) });
    expect(res.statusCode).toBe(200);
    expect(res.json().experiments.map((e: Experiment) => [e.id, e.status])).toEqual([
      [second.id, 'running'],
      [first.id, 'stopped'],
    ]);
    expect((await t.admin({ method: 'GET', url: base(shop, 'cmp_nope') })).statusCode).toBe(404);
  });
});
