/**
 * Per-customer limits (options.maxPerCustomer, issue 13 part 1) through the app: import and PUT
 * validate the field, GET /rules and the checkout configuration carry it, /evaluate reads the
 * customer's counts from the redemption records that order intake writes (an order of another
 * shop or another rule does not count), the simulator takes a what-if map or the stored
 * counts, and intake queues the customer metafield's sync only for a limited rule. PGlite, and
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { buildCheckoutConfig, compactRules } from '@gcrs/engine/checkout';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, webhookEndpoints } from '../../src/db/schema.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { importCampaigns, payloadOf } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, evaluationOf, line, liveCampaign, rule, simulate, variant } from './helpers.ts';

type Limit = { maxPerCustomer: number; used: number | null; reason: string };
type Result = { ruleId: string; matched: boolean; reasons: string[]; limit?: Limit; trace?: unknown };

const spend = { type: 'cart.subtotal_gte', value: 5000 };
const limited = (name: string, maxPerCustomer: unknown, gift: number) => {
  const base = rule(name, spend, { gifts: [gift] });
  return { ...base, options: { ...base.options, maxPerCustomer } };
};
const ada = (id: unknown = '501', loggedIn = true) => ({ id, loggedIn, tags: [] });
const bigCart = (customer: unknown) => cartOf([line({ price: 6000 })], { customer });

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId = '';
let ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  [campaignId = ''] = await importCampaigns(t, shop, [liveCampaign('Once per customer', [limited('Once', 1, 901), rule('Always', spend, { gifts: [902] })])]);
  await importCampaigns(t, other, [liveCampaign('Elsewhere', [limited('Twice elsewhere', 2, 903)])]);
  ids = Object.fromEntries((await payloadOf(t, shop)).rules.map((r) => [r.name, r.id]));
  // A subscriber, so that order.converted is queued and its data can be read.
  await t.ctx.db
    .insert(webhookEndpoints)
    .values({ shopId: shop.id, id: 'whe_limits', url: 'https://hooks.example.com/l', events: ['order.converted'], secret: 'whsec_dGVzdA==' });
});
afterAll(() => t.close());

const results = async (context: unknown, target: TestShop = shop) => ((await evaluationOf(t, target, context)).results as unknown as Result[]).map((r) => [r.matched, r.reasons, r.limit]);
/** A completed order of `customerId` holding the gift line of `ruleName` (or of another shop's rule). */
const redeem = async (target: TestShop, customerId: string, ruleId: string, campaign: string) => {
  const res = await postOrder(t, target.id, order({ customerId, lines: [{}, { gift: { campaignId: campaign, ruleId } }] }));
  expect(res.statusCode, res.body).toBe(200);
};
const redemptionJobs = async (target: TestShop) =>
  (await t.ctx.db.select({ payload: outbox.payload }).from(outbox).where(and(eq(outbox.shopId, target.id), eq(outbox.kind, 'redemptions_sync')))).map((row) => row.payload);

describe('maxPerCustomer through the app', () => {
  it('GET /rules carries it, the rule without it has none, and the checkout configuration carries the limit', async () => {
    const payload = (await payloadOf(t, shop)) as unknown as { rules: Array<{ name: string; options: Record<string, unknown> }> };
    expect(payload.rules.find((r) => r.name === 'Once')?.options).toMatchObject({ maxPerCustomer: 1 });
    expect(payload.rules.find((r) => r.name === 'Always')?.options).not.toHaveProperty('maxPerCustomer');
    const { config } = buildCheckoutConfig(payload as never);
    expect(compactRules(config)[0]?.[9]).toBe(1);
    expect(compactRules(config)[1]).toHaveLength(4);
  });

  it('/evaluate: an anonymous or logged-out cart gets nothing from the limited rule; a customer below it does, and sees used 0', async () => {
    const unknown = [false, ['max_per_customer_unknown_customer'], { maxPerCustomer: 1, used: null, reason: 'max_per_customer_unknown_customer' }];
    const always = [true, ['subtotal_at_or_above_threshold'], undefined];
    expect(await results(bigCart(null))).toEqual([unknown, always]);
    expect(await results(bigCart(ada('501', false)))).toEqual([unknown, always]);
    // An id that is not a platform customer id can never be counted: unknown too.
    expect(await results(bigCart(ada('ada@example.com')))).toEqual([unknown, always]);
    expect(await results(bigCart(ada()))).toEqual([[true, ['subtotal_at_or_above_threshold'], { maxPerCustomer: 1, used: 0, reason: 'max_per_customer_below' }], always]);
    const evaluation = await evaluationOf(t, shop, bigCart(ada()));
    expect(evaluation.operations.map((op) => (op.type === 'add' ? op.variantId : op.type))).toEqual([variant(901), variant(902)]);
  });

  it('after an order with its gift, the customer has reached it (numeric id or gid); another customer, shop or rule does not count', async () => {
    // Another shop's order of the same customer, and this shop's order of the unlimited rule.
    const elsewhere = (await payloadOf(t, other)).rules[0];
    await redeem(other, '501', elsewhere?.id ?? '', elsewhere?.campaignId ?? '');
    await redeem(shop, '501', ids.Always ?? '', campaignId);
    expect((await results(bigCart(ada())))[0]).toEqual([true, ['subtotal_at_or_above_threshold'], { maxPerCustomer: 1, used: 0, reason: 'max_per_customer_below' }]);

    await redeem(shop, '501', ids.Once ?? '', campaignId);
    const reached = [false, ['max_per_customer_reached'], { maxPerCustomer: 1, used: 1, reason: 'max_per_customer_reached' }];
    expect((await results(bigCart(ada())))[0]).toEqual(reached);
    expect((await results(bigCart(ada('gid://shopify/Customer/501'))))[0]).toEqual(reached);
    expect((await results(bigCart(ada('502'))))[0]).toEqual([true, ['subtotal_at_or_above_threshold'], { maxPerCustomer: 1, used: 0, reason: 'max_per_customer_below' }]);
    // Its gift line is removed; the other rule's stays; the trace still shows the conditions.
    const withGift = cartOf([line({ price: 6000 }), line({ id: 'g', variantId: variant(901), price: 0, attributes: { _svc_campaign_id: campaignId, _svc_rule_id: ids.Once } })], { customer: ada() });
    const evaluation = await evaluationOf(t, shop, withGift);
    expect(evaluation.operations).toEqual([{ type: 'remove', lineId: 'g', ruleId: ids.Once }, expect.objectContaining({ type: 'add', variantId: variant(902) })]);
    expect((evaluation.results[0] as unknown as Result).trace).toMatchObject({ type: 'cart.subtotal_gte', matched: true });
    // The other shop's customer 501 is below their own limit there.
    expect((await results(bigCart(ada()), other))[0]).toEqual([true, ['subtotal_at_or_above_threshold'], { maxPerCustomer: 2, used: 1, reason: 'max_per_customer_below' }]);
  });

  it('intake queues the customer metafield sync only for orders that redeemed a limited rule, with the customer', async () => {
    const before = await redemptionJobs(shop);
    expect(before).toEqual([{ customerId: '501' }]);
    await redeem(shop, '777', ids.Always ?? '', campaignId);
    expect(await redemptionJobs(shop)).toHaveLength(1);
    await redeem(shop, '777', ids.Once ?? '', campaignId);
    expect(await redemptionJobs(shop)).toEqual([{ customerId: '501' }, { customerId: '777' }]);
    const anonymous = await postOrder(t, shop.id, order({ customerId: null, lines: [{}, { gift: { campaignId, ruleId: ids.Once ?? '' } }] }));
    expect(anonymous.statusCode).toBe(200);
    expect(await redemptionJobs(shop)).toHaveLength(2);
    // The other shop's job is its own.
    expect(await redemptionJobs(other)).toEqual([{ customerId: '501' }]);
  });

  it('the simulator: a what-if map wins over the stored counts, which apply without it; the trace shows used and limit', async () => {
    const context = bigCart(ada());
    const stored = await simulate(t, shop.id, { campaignId, context });
    expect(stored.statusCode, stored.body).toBe(200);
    expect((stored.json().results as Result[])[0]?.limit).toEqual({ maxPerCustomer: 1, used: 1, reason: 'max_per_customer_reached' });
    const whatIf = await simulate(t, shop.id, { campaignId, context, redemptions: { [ids.Once ?? '']: 0 } });
    expect((whatIf.json().results as Result[])[0]).toMatchObject({ matched: true, limit: { used: 0, reason: 'max_per_customer_below' } });
    // An inline campaign's rules have never been redeemed; an anonymous context stays unknown.
    const inline = await simulate(t, shop.id, { campaign: liveCampaign('Draft', [limited('Draft once', 3, 904)]), context });
    expect((inline.json().results as Result[])[0]?.limit).toEqual({ maxPerCustomer: 3, used: 0, reason: 'max_per_customer_below' });
    const anonymous = await simulate(t, shop.id, { campaignId, context: bigCart(null), redemptions: {} });
    expect((anonymous.json().results as Result[])[0]?.reasons).toEqual(['max_per_customer_unknown_customer']);
    const bad = await simulate(t, shop.id, { campaignId, context, redemptions: { [ids.Once ?? '']: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ path: ['redemptions', ids.Once] });
  });

  it('reads no redemption record when no rule has a limit, or the customer is unknown', async () => {
    const { compileRules } = await import('@gcrs/engine');
    const { customerRedemptions } = await import('../../src/evaluate/customer-redemptions.ts');
    // A database any query would fail on: these calls must not query.
    const noDb = new Proxy({}, { get: () => { throw new Error('queried'); } }) as never;
    const unlimited = compileRules({ baseCurrency: 'USD', rules: [{ id: 'r', campaignId: 'c', conditionTree: spend as never, giftConfig: { type: 'fixed', gifts: [{ variantId: variant(1), quantity: 1 }] }, options: {} }] });
    const withLimit = compileRules({ baseCurrency: 'USD', rules: [{ id: 'r', campaignId: 'c', conditionTree: spend as never, giftConfig: { type: 'fixed', gifts: [{ variantId: variant(1), quantity: 1 }] }, options: { maxPerCustomer: 1 } }] });
    expect(await customerRedemptions(noDb, shop.id, unlimited, bigCart(ada()) as never)).toBeUndefined();
    expect(await customerRedemptions(noDb, shop.id, withLimit, bigCart(null) as never)).toBeUndefined();
    expect(await customerRedemptions(noDb, shop.id, withLimit, bigCart(ada('not-a-platform-id')) as never)).toBeUndefined();
    await expect(customerRedemptions(noDb, shop.id, withLimit, bigCart(ada()) as never)).rejects.toThrow('queried');
    expect(await customerRedemptions(t.ctx.db, shop.id, withLimit, bigCart(ada()) as never)).toEqual({});
  });

  it.each([
    ['0', 0],
    ['a fraction', 1.5],
    ['past a million', 1_000_001],
    ['a string', '3'],
  ])('import rejects a maxPerCustomer of %s with 400 and its path', async (_name, value) => {
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [liveCampaign('Bad', [limited('Bad', value, 905)])] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path: ['campaigns', 0, 'rules', 0, 'options', 'maxPerCustomer'] });
  });

  it('PUT keeps a new limit and rejects a bad one at its path; /evaluate answers 400 for a bad context, not a 5xx', async () => {
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
    const withLimit = (max: unknown) => ({ ...current, rules: current.rules.map((r: { options: object }, i: number) => (i === 1 ? { ...r, options: { ...r.options, maxPerCustomer: max } } : r)) });
    const bad = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withLimit(-2) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ path: ['rules', 1, 'options', 'maxPerCustomer'] });
    const ok = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withLimit(5) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await results(bigCart(ada())))[1]).toEqual([true, ['subtotal_at_or_above_threshold'], { maxPerCustomer: 5, used: 1, reason: 'max_per_customer_below' }]);
    const invalid = await evaluate(t, shop, { cart: { currency: 'USD', lines: [] }, customer: { id: 5, loggedIn: true, tags: [] } });
    expect(invalid.statusCode).toBe(400);
  });
  it('an order past the limit is counted and reported in order.converted overLimit; others report []', async () => {
    const overLimitOf = async (orderId: string) => {
      const rows = await t.ctx.db.select({ payload: outbox.payload }).from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.eventType, 'order.converted')));
      return rows.map((row) => (row.payload as { data: { orderId: string; overLimit: unknown } }).data).find((data) => data.orderId === orderId)?.overLimit;
    };
    const place = async (id: string, customerId: string, ruleIds: string[]) => {
      const res = await postOrder(t, shop.id, order({ id, customerId, lines: [{}, ...ruleIds.map((ruleId) => ({ gift: { campaignId, ruleId } }))] }));
      expect(res.statusCode, res.body).toBe(200);
      return overLimitOf(id);
    };
    // Customer 601: first order of the limited rule is within it; the second and third are past it.
    expect(await place('limit-601-a', '601', [ids.Once ?? '', ids.Always ?? ''])).toEqual([]);
    expect(await place('limit-601-b', '601', [ids.Once ?? '', ids.Always ?? ''])).toEqual([{ ruleId: ids.Once, campaignId, count: 2, maxPerCustomer: 1 }]);
    expect(await place('limit-601-c', '601', [ids.Once ?? ''])).toEqual([{ ruleId: ids.Once, campaignId, count: 3, maxPerCustomer: 1 }]);
    // The unlimited rule is never past anything; another customer starts at 0.
    expect(await place('limit-601-d', '601', [ids.Always ?? ''])).toEqual([]);
    expect(await place('limit-602-a', '602', [ids.Once ?? ''])).toEqual([]);
    // A duplicate order changes nothing and queues nothing.
    const again = await postOrder(t, shop.id, order({ id: 'limit-601-b', customerId: '601', lines: [{}, { gift: { campaignId, ruleId: ids.Once ?? '' } }] }));
    expect(again.json()).toMatchObject({ duplicate: true });
    const reported = (await t.ctx.db.select({ payload: outbox.payload }).from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.eventType, 'order.converted'))))
      .map((row) => (row.payload as { data: { orderId: string } }).data.orderId)
      .filter((id) => id === 'limit-601-b');
    expect(reported).toHaveLength(1);
  });
});
