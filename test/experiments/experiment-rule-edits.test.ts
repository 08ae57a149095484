/**
 * PUT /api/v1/campaigns/:id while an experiment runs: 409 when a rule of the experiment would be
 * removed or replaced by a new one; removing another rule, editing rules in place, and removing
 * the rule once the experiment is stopped are allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { experimentSteps, variants } from './experiment-fixtures.ts';
import type { Experiment } from './experiment-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { setup, start, stop } = experimentSteps(() => t);


describe('PUT /campaigns/:id while an experiment runs', () => {
  async function running() {
    const ctx = await setup();
    const experiment = (await start(ctx.shop, ctx.campaignId, { primaryMetric: 'conversion_rate', variants: variants(ctx.ruleIds.slice(0, 2)) })).json()
      .experiment as Experiment;
    const current = await readCampaign(t, ctx.shop, ctx.campaignId);
    const body = {
      name: current.name,
      enabled: current.enabled,
      isDraft: current.isDraft,
      startAt: current.startAt,
      endAt: current.endAt,
      rules: current.rules.map(({ id, name, enabled, conditionTree, giftConfig, options }) => ({ id, name, enabled, conditionTree, giftConfig, options })),
    };
    const put = (payload: unknown) =>
      t.api(ctx.shop, { method: 'PUT', url: `/api/v1/campaigns/${ctx.campaignId}`, payload: payload as Record<string, unknown> });
    return { ...ctx, experiment, body, put };
  }

  it('answers 409 when a rule of the experiment would be removed', async () => {
    const { body, put, ruleIds, experiment } = await running();
    const res = await put({ ...body, rules: body.rules.filter((r) => r.id !== ruleIds[0]) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ experimentId: experiment.id, ruleIds: [ruleIds[0]] });
  });

  it('answers 409 when a rule of the experiment would be replaced by a new one', async () => {
    const { body, put, ruleIds } = await running();
    const replaced = body.rules.map((r) => (r.id === ruleIds[1] ? { ...r, id: undefined } : r));
    expect((await put({ ...body, rules: replaced })).statusCode).toBe(409);
  });

  it('allows removing a rule outside the experiment and editing its rules in place', async () => {
    const { body, put, ruleIds } = await running();
    const kept = body.rules.filter((r) => r.id !== ruleIds[2]).map((r) => ({ ...r, name: `${r.name} (edited)` }));
    const res = await put({ ...body, rules: kept });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().campaign.experiment.status).toBe('running');
  });

  it('allows removing the rule once the experiment is stopped', async () => {
    const { shop, campaignId, body, put, ruleIds, experiment } = await running();
    await stop(shop, campaignId, experiment.id);
    expect((await put({ ...body, rules: body.rules.filter((r) => r.id !== ruleIds[0]) })).statusCode).toBe(200);
  });
});
