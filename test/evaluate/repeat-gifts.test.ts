/**
 * Repeatable gifts (giftConfig.per, issue 13 part 4) through the app: import and PUT keep and
 * validate `per`, GET /rules carries it, /evaluate and the simulator give gift × sets with the
 * count in the result, and another shop sees none of it. Runs on PGlite, and on PostgreSQL
 * with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCampaigns, payloadOf, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, evaluationOf, line, liveCampaign, rule, simulate, variant } from './helpers.ts';

const perItems = { every: 3, of: 'items', max: 4 };
const repeating = (per: unknown, name = 'Per 3 items') => {
  const base = rule(name, { type: 'cart.item_count_gte', value: 1 });
  return { ...base, giftConfig: { ...base.giftConfig, gifts: [{ variantId: variant(900), quantity: 2 }], per } };
};

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId: string;

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  [campaignId = ''] = await importCampaigns(t, shop, [liveCampaign('Repeat', [repeating(perItems)])]);
});
afterAll(() => t.close());

describe('giftConfig.per through the app', () => {
  it('is stored, read back and delivered by GET /rules', async () => {
    expect((await readCampaign(t, shop, campaignId)).rules[0]?.giftConfig).toMatchObject({ per: perItems });
    const payload = (await payloadOf(t, shop)) as unknown as { rules: Array<{ giftConfig: unknown }> };
    expect(payload.rules[0]?.giftConfig).toMatchObject({ per: perItems });
    expect((await payloadOf(t, other)).rules).toEqual([]);
  });

  it('/evaluate gives gift quantity × sets and says how many sets and why', async () => {
    const evaluation = (await evaluationOf(t, shop, cartOf([line({ quantity: 10 })]))) as unknown as {
      results: Array<{ matched: boolean; repeat?: Record<string, unknown> }>;
      operations: Array<Record<string, unknown>>;
    };
    expect(evaluation.results[0]).toMatchObject({ matched: true, repeat: { sets: 3, of: 'items', every: 3, max: 4, counted: 10, capped: false, reason: 'per_sets' } });
    expect(evaluation.operations).toEqual([expect.objectContaining({ type: 'add', variantId: variant(900), quantity: 6, sets: 3 })]);
    const capped = (await evaluationOf(t, shop, cartOf([line({ quantity: 30 })]))) as unknown as { results: Array<{ repeat?: Record<string, unknown> }> };
    expect(capped.results[0]?.repeat).toMatchObject({ sets: 4, capped: true, reason: 'per_sets_capped' });
    const none = (await evaluationOf(t, shop, cartOf([line({ quantity: 2 })]))) as unknown as { results: Array<{ repeat?: Record<string, unknown> }>; operations: unknown[] };
    expect(none.results[0]?.repeat).toMatchObject({ sets: 0, reason: 'per_below_every' });
    expect(none.operations).toEqual([]);
  });

  it('the simulator answers the same for the stored campaign, and an inline subtotal step', async () => {
    const context = cartOf([line({ quantity: 7 })]);
    const stored = await simulate(t, shop.id, { campaignId, context });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().results[0].repeat).toMatchObject({ sets: 2 });
    expect(stored.json().operations).toEqual((await evaluationOf(t, shop, context)).operations);
    const inline = await simulate(t, shop.id, {
      campaign: liveCampaign('Inline', [repeating({ every: 2500, of: 'subtotal', max: 10, currencyOverrides: { EUR: 2000 } })]),
      context: cartOf([line({ quantity: 7 })], { cart: { currency: 'EUR', lines: [line({ quantity: 7 })] } }),
    });
    expect(inline.statusCode, inline.body).toBe(200);
    expect(inline.json().results[0].repeat).toMatchObject({ sets: 3, every: 2000, of: 'subtotal' });
  });

  it.each([
    ['every 0', { every: 0, of: 'items', max: 1 }, 'every'],
    ['max above 100', { every: 1, of: 'items', max: 101 }, 'max'],
    ['an unknown of', { every: 1, of: 'orders', max: 1 }, 'of'],
  ])('import rejects %s with 400 and its path', async (_name, per, field) => {
    const res = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Bad', [repeating(per)])] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path: ['campaigns', 0, 'rules', 0, 'giftConfig', 'per', field] });
  });

  it('PUT rejects a bad per with its path, and another shop cannot touch the campaign', async () => {
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
    const bad = { ...current, rules: [{ ...current.rules[0], giftConfig: { ...current.rules[0].giftConfig, per: { every: 1, of: 'items', max: 0 } } }] };
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ path: ['rules', 0, 'giftConfig', 'per', 'max'] });
    const foreign = await t.api(other, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: current });
    expect(foreign.statusCode).toBe(404);
    const evaluated = await evaluate(t, other, cartOf([line({ quantity: 10 })]));
    expect(evaluated.json()).toEqual({ results: [], operations: [] });
  });
});
