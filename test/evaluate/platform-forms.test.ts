/**
 * Where the service follows the platform and SPEC rather than being stricter (issue 8):
 * cart-line attributes in the platform's `[{ key, value }]` list form, beside the object
 * form, on /evaluate and the admin simulator; and a `customer.is_logged_in` value other than
 * true/false, stored as sent and failing closed at evaluation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, evaluationOf, line, liveCampaign, resultOf, rule, simulate, variant } from './helpers.ts';
import type { Evaluation } from './helpers.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let wrapRule: string;
let loggedInRule: string;
let campaignId: string;

// A gift line of the wrap rule, and a line with the property the rule asks for, each in
// both attribute forms.
const giftAttributes = () => ({ _svc_campaign_id: campaignId, _svc_rule_id: wrapRule });
const asList = (attributes: Record<string, string>) => Object.entries(attributes).map(([key, value]) => ({ key, value }));

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  [campaignId] = (await importCampaigns(t, shop, [
    liveCampaign('Forms', [
      rule('Gift wrap', { type: 'line.property_equals', key: 'gift_wrap', value: 'yes' }),
      rule('Logged in, said oddly', { type: 'customer.is_logged_in', value: 'yes' }),
    ]),
  ])) as [string];
  const rules = (await readCampaign(t, shop, campaignId)).rules;
  wrapRule = rules[0]?.id as string;
  loggedInRule = rules[1]?.id as string;
});
afterAll(() => t.close());

describe('cart-line attributes in the list form', () => {
  const wrapped = (form: 'object' | 'list') => {
    const attributes = { gift_wrap: 'yes' };
    return line({ id: 'l1', attributes: form === 'object' ? attributes : asList(attributes) });
  };
  const giftLine = (form: 'object' | 'list') =>
    line({ id: 'g1', productId: '900', variantId: variant(900), price: 0, attributes: form === 'object' ? giftAttributes() : asList(giftAttributes()) });

  it.each(['api', 'admin'] as const)('gives the same evaluation for both forms (%s mount)', async (via) => {
    const byForm: Record<string, Evaluation> = {};
    for (const form of ['object', 'list'] as const) {
      byForm[form] = await evaluationOf(t, shop, cartOf([wrapped(form)]), via);
    }
    expect(resultOf(byForm['list'] as Evaluation, wrapRule)).toMatchObject({ matched: true, reasons: ['property_found'] });
    expect(byForm['list']).toEqual(byForm['object']);
  });

  it('sees a gift line in the list form: it is invisible to leaves and removed when its rule no longer matches', async () => {
    const object = await evaluationOf(t, shop, cartOf([giftLine('object')]));
    const list = await evaluationOf(t, shop, cartOf([giftLine('list')]));
    expect(list).toEqual(object);
    expect(list.operations).toEqual([{ type: 'remove', lineId: 'g1', ruleId: wrapRule }]);
    // The gift line itself carries no gift_wrap, but even a gift line that did would not count.
    const giftWithWrap = line({ id: 'g2', price: 0, attributes: asList({ ...giftAttributes(), gift_wrap: 'yes' }) });
    expect(resultOf(await evaluationOf(t, shop, cartOf([giftWithWrap])), wrapRule).matched).toBe(false);
  });

  it('accepts the list form in the admin simulator', async () => {
    const res = await simulate(t, shop.id, { campaignId, context: cartOf([wrapped('list')]) });
    expect(res.statusCode, res.body).toBe(200);
    expect(resultOf(res.json() as Evaluation, wrapRule).matched).toBe(true);
  });

  it.each([
    ['a key that is not a string', [{ key: 1, value: 'yes' }], ['cart', 'lines', 0, 'attributes', 0, 'key']],
    ['an entry without a value', [{ key: 'gift_wrap' }], ['cart', 'lines', 0, 'attributes', 0, 'value']],
    ['a list of strings', ['gift_wrap'], ['cart', 'lines', 0, 'attributes', 0]],
    ['an object value that is not a string', { gift_wrap: true }, ['cart', 'lines', 0, 'attributes', 'gift_wrap']],
  ])('answers 400 for %s', async (_name, attributes, path) => {
    const res = await evaluate(t, shop, cartOf([line({ attributes })]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ path });
  });

  it('documents both attribute forms in the OpenAPI request body of /evaluate', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    type Node = { properties: Record<string, Node>; items: Node; anyOf: unknown[] };
    const doc = res.json() as { paths: Record<string, { post: { requestBody: { content: Record<string, { schema: Node }> } } }> };
    const body = doc.paths['/api/v1/evaluate']?.post.requestBody.content['application/json']?.schema;
    expect(body?.properties['cart']?.properties['lines']?.items.properties['attributes']?.anyOf).toEqual([
      expect.objectContaining({ type: 'object', additionalProperties: expect.objectContaining({ type: 'string' }) }),
      expect.objectContaining({ type: 'array', items: expect.objectContaining({ required: ['key', 'value'] }) }),
    ]);
  });

  it("evaluates only the caller's shop, in either form", async () => {
    const evaluation = await evaluationOf(t, other, cartOf([wrapped('list')]));
    expect(evaluation).toEqual({ results: [], operations: [] });
  });
});

describe('customer.is_logged_in with a value other than true/false', () => {
  const loggedIn = { customer: { id: 'c1', loggedIn: true, tags: [] } };

  it('is stored and read back as sent', async () => {
    const stored = (await readCampaign(t, shop, campaignId)).rules[1] as unknown as { conditionTree: unknown };
    expect(stored.conditionTree).toEqual({ type: 'customer.is_logged_in', value: 'yes' });
  });

  it('fails closed at evaluation, for a logged-in customer and for a guest', async () => {
    for (const extra of [loggedIn, {}]) {
      const evaluation = await evaluationOf(t, shop, cartOf([line()], extra));
      expect(resultOf(evaluation, loggedInRule)).toMatchObject({ matched: false, reasons: ['invalid_value'] });
    }
  });

  it('is documented in the OpenAPI document as a required value of any type', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const leaf = (res.json() as { components: { schemas: Record<string, { required?: string[]; properties?: Record<string, Record<string, unknown>> }> } })
      .components.schemas['CustomerIsLoggedInLeaf'];
    expect(leaf?.required).toEqual(['type', 'value']);
    expect(leaf?.properties?.['value']).toEqual({ description: expect.stringContaining('never matches') });
  });

  it('still requires a value: a leaf without one is a 400', async () => {
    const res = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('No value', [rule('Missing', { type: 'customer.is_logged_in' })])] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ path: ['campaigns', 0, 'rules', 0, 'conditionTree', 'value'] });
  });
});
