/**
 * Issue 23, defect 3, through the app: `options.lockQuantity` is stored, validated and served by
 * GET /rules; /evaluate and the simulator put a locked gift line back to its quantity (an
 * `update`) and remove a rule's duplicated gift lines; another shop sees none of it. Runs on
 * PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCampaigns, payloadOf, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, evaluationOf, line, liveCampaign, rule, simulate, variant } from './helpers.ts';

const always = { type: 'cart.item_count_gte', value: 1 };
const twoTotes = (name: string, options: Record<string, unknown> = {}) => {
  const base = rule(name, always);
  return { ...base, giftConfig: { ...base.giftConfig, gifts: [{ variantId: variant(900), quantity: 2 }] }, options: { ...base.options, ...options } };
};
const giftLine = (id: string, ruleId: string, campaignId: string, quantity: number) =>
  line({ id, variantId: variant(900), price: 0, quantity, attributes: { _svc_campaign_id: campaignId, _svc_rule_id: ruleId } });

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId: string;
let lockedRule: string;
let freeRule: string;

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  [campaignId = ''] = await importCampaigns(t, shop, [liveCampaign('Totes', [twoTotes('Locked by default'), twoTotes('Unlocked', { lockQuantity: false })])]);
  const rules = (await readCampaign(t, shop, campaignId)).rules;
  lockedRule = rules[0]?.id ?? '';
  freeRule = rules[1]?.id ?? '';
});
afterAll(() => t.close());

describe('options.lockQuantity through the app', () => {
  it('is stored as given (absent stays absent) and served by GET /rules', async () => {
    const rules = (await readCampaign(t, shop, campaignId)).rules as unknown as Array<{ options: Record<string, unknown> }>;
    expect(rules.map((r) => r.options.lockQuantity)).toEqual([undefined, false]);
    const payload = (await payloadOf(t, shop)) as unknown as { rules: Array<{ options: Record<string, unknown> }> };
    expect(payload.rules.map((r) => r.options.lockQuantity)).toEqual([undefined, false]);
  });

  it('/evaluate puts the locked line back to the gift quantity, leaves the unlocked one, and removes a duplicate', async () => {
    const { operations } = await evaluationOf(
      t,
      shop,
      cartOf([line(), giftLine('g1', lockedRule, campaignId, 5), giftLine('g2', freeRule, campaignId, 5), giftLine('g3', lockedRule, campaignId, 2)]),
    );
    expect(operations).toEqual([
      { type: 'remove', lineId: 'g3', ruleId: lockedRule },
      { type: 'update', lineId: 'g1', ruleId: lockedRule, quantity: 2 },
    ]);
    const added = await evaluationOf(t, shop, cartOf([line()]));
    expect(added.operations.map((op) => (op.type === 'add' ? op.attributes._svc_lock_quantity : op.type))).toEqual(['true', undefined]);
  });

  it('the simulator answers the same, for the stored campaign and for an inline one', async () => {
    const context = cartOf([line(), giftLine('g1', lockedRule, campaignId, 3)]);
    const stored = await simulate(t, shop.id, { campaignId, context });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().operations).toEqual([
      { type: 'update', lineId: 'g1', ruleId: lockedRule, quantity: 2 },
      expect.objectContaining({ type: 'add', attributes: expect.objectContaining({ _svc_rule_id: freeRule }) }),
    ]);
    expect(stored.json().operations).toEqual((await evaluationOf(t, shop, context)).operations);
    const inline = await simulate(t, shop.id, { campaign: liveCampaign('Inline', [twoTotes('Inline', { lockQuantity: false })]), context: cartOf([line()]) });
    expect(inline.statusCode, inline.body).toBe(200);
    expect(inline.json().operations[0].attributes).not.toHaveProperty('_svc_lock_quantity');
  });

  it('rejects a lockQuantity that is not a boolean with 400 and its path, on import and on PUT', async () => {
    const imported = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Bad', [twoTotes('Bad', { lockQuantity: 'yes' })])] },
    });
    expect(imported.statusCode).toBe(400);
    expect(imported.json()).toMatchObject({ path: ['campaigns', 0, 'rules', 0, 'options', 'lockQuantity'] });
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
    const bad = { ...current, rules: [{ ...current.rules[0], options: { ...current.rules[0].options, lockQuantity: 1 } }, current.rules[1]] };
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ path: ['rules', 0, 'options', 'lockQuantity'] });
  });

  it('another shop cannot change the option, and its evaluation removes lines naming this shop\'s rules', async () => {
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
    const flipped = { ...current, rules: current.rules.map((r: { options: object }) => ({ ...r, options: { ...r.options, lockQuantity: false } })) };
    expect((await t.api(other, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: flipped })).statusCode).toBe(404);
    expect(((await readCampaign(t, shop, campaignId)).rules[0] as unknown as { options: Record<string, unknown> }).options.lockQuantity).toBeUndefined();
    const foreign = await evaluate(t, other, cartOf([line(), giftLine('g1', lockedRule, campaignId, 5)]));
    expect(foreign.json()).toEqual({ results: [], operations: [{ type: 'remove', lineId: 'g1', ruleId: lockedRule }] });
  });

  it('a merchant turns the lock on for the unlocked rule with PUT, and /evaluate follows', async () => {
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
    const locked = { ...current, rules: [current.rules[0], { ...current.rules[1], options: { ...current.rules[1].options, lockQuantity: true } }] };
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: locked });
    expect(res.statusCode, res.body).toBe(200);
    const { operations } = await evaluationOf(t, shop, cartOf([line(), giftLine('g1', lockedRule, campaignId, 2), giftLine('g2', freeRule, campaignId, 4)]));
    expect(operations).toEqual([{ type: 'update', lineId: 'g2', ruleId: freeRule, quantity: 2 }]);
  });
});
