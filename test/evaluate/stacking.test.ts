/**
 * Stacking (options.priority / options.exclusive, shop setting engine.stacking; issue 13 part
 * 3) through the app: import and PUT validate the fields, GET /rules carries them and the
 * setting, /evaluate and the simulator say which rule won and why, the checkout configuration
 * carries them, and another shop is untouched. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { buildCheckoutConfig, runGiftDiscount } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCampaigns, payloadOf } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluationOf, line, liveCampaign, rule, simulate, variant } from './helpers.ts';

type Result = { ruleId: string; matched: boolean; reasons: string[]; suppressedBy?: string };
const spend = (value: number) => ({ type: 'cart.subtotal_gte', value });
const withOptions = (base: ReturnType<typeof rule>, options: Record<string, unknown>, gift: number) => ({
  ...base,
  giftConfig: { ...base.giftConfig, gifts: [{ variantId: variant(gift), quantity: 1 }] },
  options: { ...base.options, ...options },
});

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  await importCampaigns(t, shop, [
    liveCampaign('Tiers', [withOptions(rule('Tier 50', spend(5000)), {}, 901), withOptions(rule('Tier 100', spend(10_000)), {}, 902)]),
    liveCampaign('VIP', [withOptions(rule('VIP only', spend(8000)), { priority: 10, exclusive: true }, 903)]),
  ]);
  await importCampaigns(t, other, [liveCampaign('Plain', [rule('Plain', spend(0))])]);
  ids = Object.fromEntries((await payloadOf(t, shop)).rules.map((r) => [r.name, r.id]));
});
afterAll(() => t.close());

const results = async (price: number, target: TestShop = shop) =>
  ((await evaluationOf(t, target, cartOf([line({ price })]))).results as Result[]).map((r) => [r.ruleId, r.matched, r.reasons, r.suppressedBy]);

describe('stacking through the app', () => {
  it('GET /rules carries priority, exclusive and the stacking setting', async () => {
    const payload = (await payloadOf(t, shop)) as unknown as { rules: Array<{ options: Record<string, unknown> }>; shopSettings: { engine: Record<string, unknown> } };
    expect(payload.rules[2]?.options).toMatchObject({ priority: 10, exclusive: true });
    expect(payload.rules[0]?.options).not.toHaveProperty('priority');
    expect(payload.shopSettings.engine.stacking).toBe('all');
  });

  it('/evaluate: the exclusive rule suppresses the lower ones and says so; below its threshold everything gives', async () => {
    expect(await results(12_000)).toEqual([
      [ids['Tier 50'], false, ['suppressed_by_exclusive'], ids['VIP only']],
      [ids['Tier 100'], false, ['suppressed_by_exclusive'], ids['VIP only']],
      [ids['VIP only'], true, ['subtotal_at_or_above_threshold'], undefined],
    ]);
    expect(await results(6000)).toEqual([
      [ids['Tier 50'], true, ['subtotal_at_or_above_threshold'], undefined],
      [ids['Tier 100'], false, ['subtotal_below_threshold'], undefined],
      [ids['VIP only'], false, ['subtotal_below_threshold'], undefined],
    ]);
    expect(await results(12_000, other)).toEqual([[expect.any(String), true, expect.any(Array), undefined]]);
  });

  it('highest_tier (PATCH the shop): only the highest tier of a campaign gives, the simulator agrees, the checkout config follows', async () => {
    const res = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { engine: { stacking: 'highest_tier' } } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await results(9000)).toEqual([
      [ids['Tier 50'], false, ['suppressed_by_exclusive'], ids['VIP only']],
      [ids['Tier 100'], false, ['subtotal_below_threshold'], undefined],
      [ids['VIP only'], true, ['subtotal_at_or_above_threshold'], undefined],
    ]);
    const context = cartOf([line({ price: 10_000 })], { cart: { currency: 'USD', lines: [line({ price: 10_000 })] } });
    const withoutVip = await simulate(t, shop.id, { campaign: liveCampaign('Tiers', [rule('Tier 50', spend(5000)), rule('Tier 100', spend(10_000))]), context });
    expect(withoutVip.statusCode, withoutVip.body).toBe(200);
    expect((withoutVip.json().results as Result[]).map((r) => [r.matched, r.reasons])).toEqual([
      [false, ['suppressed_by_higher_tier']],
      [true, ['subtotal_at_or_above_threshold']],
    ]);
    const payload = await payloadOf(t, shop);
    const { config } = buildCheckoutConfig(payload as never);
    expect(config.k).toMatchObject({ t: 1 });
    // A shopper holding both the VIP gift and a tier gift: only the VIP one is discounted.
    const giftLineOf = (name: string, n: number, campaignId: string) => ({
      id: `gid://shopify/CartLine/${n}`,
      quantity: 1,
      cost: { amountPerQuantity: { amount: '5.00', currencyCode: 'USD' } },
      merchandise: { id: variant(n) },
      campaignId: { value: campaignId },
      ruleId: { value: ids[name] ?? '' },
    });
    const campaignOf = (name: string) => payload.rules.find((r) => r.name === name)?.campaignId ?? '';
    const lines = [
      { id: 'gid://shopify/CartLine/1', quantity: 1, cost: { amountPerQuantity: { amount: '120.00', currencyCode: 'USD' } }, merchandise: { id: variant(11) } },
      giftLineOf('Tier 100', 902, campaignOf('Tier 100')),
      giftLineOf('VIP only', 903, campaignOf('VIP only')),
    ];
    const result = runGiftDiscount({ cart: { lines }, discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } } });
    expect(result.operations[0]?.productDiscountsAdd.candidates.map((c) => c.targets[0]?.cartLine.id)).toEqual(['gid://shopify/CartLine/903']);
  });

  it.each([
    ['a fractional priority', { priority: 1.5 }, 'priority'],
    ['a priority past a million', { priority: 2_000_000 }, 'priority'],
    ['a non-boolean exclusive', { exclusive: 'yes' }, 'exclusive'],
  ])('import rejects %s with 400 and its path', async (_name, options, field) => {
    const res = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Bad', [withOptions(rule('Bad', spend(0)), options, 900)])] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path: ['campaigns', 0, 'rules', 0, 'options', field] });
  });

  it('PUT rejects a bad priority with its path; PATCH rejects an unknown stacking with its path', async () => {
    const campaignId = (await payloadOf(t, shop)).rules[2]?.campaignId ?? '';
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
    const bad = { ...current, rules: [{ ...current.rules[0], options: { ...current.rules[0].options, priority: 'high' } }] };
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ path: ['rules', 0, 'options', 'priority'] });
    const patched = await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { engine: { stacking: 'tiers' } } } });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ path: ['settings', 'engine', 'stacking'] });
  });
});
