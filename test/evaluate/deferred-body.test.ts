/**
 * POST /evaluate parses its JSON body itself once the caller is known (src/http/json-body.ts
 * `DeferredJsonBody`): JSON.parse alone for a body the shortcut accepts, the map's text not
 * parsed again when it is the shop's last (collections-memo.ts), Fastify's parser with its
 * prototype-poisoning scans for any other. Held here: answers equal those of the same body
 * written another way, poisoned bodies are refused or harmless, and the 400s are Fastify's
 * parser's, word for word.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCampaigns } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, line, liveCampaign, product, rule } from './helpers.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  await importCampaigns(t, shop, [
    liveCampaign('Mine', [
      rule('Summer', { type: 'line.in_collection', value: 'summer' }),
      rule('Big cart', { type: 'cart.subtotal_gte', value: 3000 }),
    ]),
  ]);
  await importCampaigns(t, other, [liveCampaign('Theirs', [rule('Winter', { type: 'line.in_collection', value: 'winter' })])]);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const json = { 'content-type': 'application/json' };
const post = (s: TestShop, text: string, url = '/api/v1/evaluate?trace=false') => t.api(s, { method: 'POST', url, headers: json, payload: text });
/** The same value as `JSON.stringify(value)`, written with spaces: never the memo's text. */
const spaced = (value: unknown) => JSON.stringify(value, null, 1);
/** The error body without its request id. */
const refusal = (res: { json(): unknown }) => {
  const { requestId, ...rest } = res.json() as { requestId: string };
  expect(requestId).toMatch(/^req_/);
  return rest;
};

describe('POST /evaluate: a body parsed after its caller is known', () => {
  it('answers a repeated map, a changed one and another shop\'s as the same bodies written with spaces', async () => {
    const inSummer = { summer: [product(1), product(5)], winter: [product(1)] };
    const notInSummer = { summer: [product(2), product(5)], winter: [product(1)] };
    for (const [s, map] of [[shop, inSummer], [shop, inSummer], [shop, notInSummer], [other, notInSummer], [shop, notInSummer], [other, inSummer]] as const) {
      const body = cartOf([line({ price: 4000 })], { collections: map, visitorId: 'v' });
      const compact = await post(s, JSON.stringify(body));
      expect(compact.statusCode, compact.body).toBe(200);
      expect(compact.body).toBe((await post(s, spaced(body))).body);
    }
    // The answers themselves: the map decides, per shop.
    const summer = (await post(shop, JSON.stringify(cartOf([line()], { collections: inSummer })))).json() as { results: Array<{ matched: boolean }> };
    expect(summer.results[0]?.matched).toBe(true);
    const winterThere = (await post(other, JSON.stringify(cartOf([line()], { collections: inSummer })))).json() as { results: Array<{ matched: boolean }> };
    expect(winterThere.results[0]?.matched).toBe(true);
  });

  it('does not parse the text of the shop\'s last map again', async () => {
    const map = { summer: Array.from({ length: 50 }, (_, i) => product(i + 1)) };
    const text = JSON.stringify(cartOf([line()], { collections: map }));
    expect((await post(shop, text)).statusCode).toBe(200);
    const parse = vi.spyOn(JSON, 'parse');
    const again = await post(shop, text);
    expect(again.statusCode).toBe(200);
    const parsed = parse.mock.calls.map(([input]) => String(input));
    expect(parsed.some((input) => input.includes(JSON.stringify(map)))).toBe(false);
    expect(parsed.some((input) => input.startsWith('{"cart":'))).toBe(true);
  });

  it('reads a body with a byte order mark as Fastify\'s parser does', async () => {
    const body = JSON.stringify(cartOf([line()], { collections: { summer: [product(1)] } }));
    const plain = await post(shop, body);
    const marked = await post(shop, `\uFEFF${body}`);
    expect(marked.statusCode).toBe(200);
    expect(marked.body).toBe(plain.body);
  });
});

describe('POST /evaluate: poisoned bodies are refused or harmless', () => {
  const valid = cartOf([line({ price: 4000 })], { collections: { summer: [product(1)] } });
  const validText = JSON.stringify(valid);

  it.each([
    ['__proto__ at the top level', `{"__proto__":{"polluted":true},${validText.slice(1)}`],
    ['constructor.prototype at the top level', `{"constructor":{"prototype":{"polluted":true}},${validText.slice(1)}`],
    ['__proto__ in the cart', validText.replace('"cart":{', '"cart":{"__proto__":{"polluted":true},')],
    ['__proto__ in a line', validText.replace('"lines":[{', '"lines":[{"__proto__":{"polluted":true},')],
  ])('%s: dropped with the other unknown keys, the answer is the body\'s without it', async (_name, text) => {
    const res = await post(shop, text);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe((await post(shop, validText)).body);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each([
    ['__proto__ as a collection', validText.replace('"collections":{', '"collections":{"__proto__":["1"],')],
    ['constructor.prototype as a collection', validText.replace('"collections":{', '"collections":{"constructor":{"prototype":["1"]},')],
    ['__proto__ standing for a line\'s price', validText.replace(/"price":4000/, '"__proto__":{"price":4000}')],
  ])('%s: the 400 of Fastify\'s parser, word for word', async (_name, text) => {
    const res = await post(shop, text);
    // The same text on a route that has no shortcut: Fastify's parser refuses it.
    const reference = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', headers: json, payload: text });
    expect(reference.statusCode).toBe(400);
    expect(res.statusCode).toBe(400);
    expect(refusal(res)).toEqual(refusal(reference));
    expect(refusal(res)).toEqual({ code: 'bad_request', error: 'Malformed JSON body', issue: "Body is not valid JSON but content-type is set to 'application/json'" });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('answers malformed JSON with Fastify\'s 400, word for word, and only to a caller it knows', async () => {
    for (const text of ['{"cart": ', `${validText}}`, '{"cart":{"currency":"USD","lines":[]},}']) {
      const res = await post(shop, text);
      const reference = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', headers: json, payload: text });
      expect(res.statusCode).toBe(400);
      expect(refusal(res)).toEqual(refusal(reference));
    }
    // An unknown caller learns nothing about its body (shop-routes.ts: validation after the shop).
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/evaluate', headers: json, payload: '{"cart": ' });
    expect(anonymous.statusCode).toBe(401);
  });
});
