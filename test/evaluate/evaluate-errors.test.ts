/**
 * POST /api/v1/evaluate on bad input (CONTRACT "Evaluation"): a 400 with the path of every bad
 * context field, 200 for odd but valid contexts, malformed JSON refused, never a 5xx; and the
 * route's entry in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppWithShop } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, line } from './helpers.ts';

let t: TestApp;
let shop: TestShop;

beforeAll(async () => ({ t, shop } = await createTestAppWithShop()));
afterAll(() => t.close());

describe('400 on a bad context, never 5xx', () => {
  it.each([
    ['no body fields', {}, ['cart']],
    ['missing cart lines', { cart: { currency: 'USD' } }, ['cart', 'lines']],
    ['negative quantity', cartOf([line({ quantity: -1 })]), ['cart', 'lines', 0, 'quantity']],
    ['fractional quantity', cartOf([line(), line({ quantity: 1.5 })]), ['cart', 'lines', 1, 'quantity']],
    ['price as a string', cartOf([line({ price: '10.00' })]), ['cart', 'lines', 0, 'price']],
    ['currency not ISO 4217', { cart: { currency: 'US', lines: [] } }, ['cart', 'currency']],
    ['a product gid as variant', cartOf([line({ variantId: 'gid://shopify/Product/1' })]), ['cart', 'lines', 0, 'variantId']],
    ['attribute values not strings', cartOf([line({ attributes: { a: 1 } })]), ['cart', 'lines', 0, 'attributes', 'a']],
    ['customer without loggedIn', cartOf([], { customer: { tags: [] } }), ['customer', 'loggedIn']],
    ['visitorId not a string', cartOf([], { visitorId: 7 }), ['visitorId']],
  ])('%s', async (_name, body, path) => {
    const res = await evaluate(t, shop, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path });
    expect(typeof res.json().issue).toBe('string');
  });

  it('answers odd but valid contexts with 200', async () => {
    const odd = [
      cartOf([line({ attributes: { constructor: 'y', toString: 'z', _svc_campaign_id: '' } })]),
      cartOf([line({ quantity: Number.MAX_SAFE_INTEGER, price: Number.MAX_SAFE_INTEGER })], { customer: null, market: null }),
      { cart: { currency: 'usd', lines: [] }, collections: { constructor: ['1'], hasOwnProperty: [] } },
      cartOf([line({ productId: 0, variantId: '0', sellingPlanId: null })], { market: { handle: '', country: '' }, visitorId: '' }),
    ];
    for (const context of odd) {
      const res = await evaluate(t, shop, context);
      expect(res.statusCode, res.body).toBe(200);
    }
    // A __proto__ key where the context reads a value (here a collection) is refused with the
    // body parser's 400 (deferred-body.test.ts holds the other places).
    const poisoned = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/evaluate',
      headers: { 'content-type': 'application/json' },
      payload: '{"cart":{"currency":"USD","lines":[]},"collections":{"__proto__":["1"]}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });

  it('rejects malformed JSON and a non-object body', async () => {
    const broken = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/evaluate',
      headers: { 'content-type': 'application/json' },
      payload: '{"cart": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'Malformed JSON body' });
    const list = await t.api(shop, { method: 'POST', url: '/api/v1/evaluate', payload: [1, 2] as unknown as Record<string, unknown> });
    expect(list.statusCode).toBe(400);
  });
});

describe('OpenAPI document', () => {
  it('documents /api/v1/evaluate with its body, result and rate row', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operation = doc.paths['/api/v1/evaluate'].post;
    expect(operation['x-rate-limit']).toMatchObject({ policy: 'default', limit: 120 });
    expect(operation.requestBody.content['application/json'].schema.required).toContain('cart');
    const ok = operation.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties)).toEqual(['results', 'operations']);
    const result = ok.properties.results.items;
    expect(Object.keys(result.properties)).toEqual(['ruleId', 'campaignId', 'matched', 'reasons', 'suppressedBy', 'repeat', 'limit', 'trace']);
    // The trace is a named, recursive component (issue 8), no longer an inline schema with an $id.
    expect(JSON.stringify(result.properties.trace)).toContain('"$ref":"#/components/schemas/ConditionTrace"');
    expect(operation.responses['400']).toBeDefined();
  });
});
