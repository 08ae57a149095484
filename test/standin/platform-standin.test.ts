import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandinPlatform } from '../../dev/platform/standin.ts';
import type { StandinPlatform } from '../../dev/platform/standin.ts';

const ENDPOINT = '/admin/api/2025-10/graphql.json';

describe('the stand-in platform routes Admin GraphQL to the family of each root field', () => {
  let platform: StandinPlatform;
  const seen: string[] = [];
  beforeAll(async () => {
    platform = await startStandinPlatform({
      families: [
        { rootFields: ['shop'], answer: (call) => ({ data: { [call.rootFields[0]!.key]: { name: call.shop.name } } }) },
        { rootFields: ['throttled'], answer: () => ({ status: 429, headers: { 'retry-after': '2' }, errors: [{ message: 'Throttled' }] }) },
      ],
      routes: [{ method: 'POST', path: '/admin/oauth/access_token', handle: (_req, body, res) => {
        seen.push(body.toString());
        res.end('{}');
      } }],
    });
    platform.addShop({ domain: 'a.myshopify.com', name: 'Shop A', accessTokens: new Set(['shpat_a']) });
  });
  afterAll(() => platform.close());

  const ask = (token: string, query: string) =>
    fetch(platform.url + ENDPOINT, { method: 'POST', headers: { 'x-shopify-access-token': token, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

  it('answers a known shop by its token, under an alias, and records the request', async () => {
    const response = await ask('shpat_a', '{ mine: shop { name } }');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { mine: { name: 'Shop A' } } });
    expect(platform.requests.at(-1)).toMatchObject({ path: ENDPOINT, token: 'shpat_a' });
  });

  it('answers 401 to an unknown token, an unknown field with errors, a throttled family with its status', async () => {
    expect((await ask('shpat_other', '{ shop { name } }')).status).toBe(401);
    expect(await (await ask('shpat_a', '{ nothing { id } }')).json()).toEqual({ errors: [{ message: "Field 'nothing' doesn't exist on type 'QueryRoot'" }] });
    const throttled = await ask('shpat_a', '{ throttled }');
    expect([throttled.status, throttled.headers.get('retry-after')]).toEqual([429, '2']);
  });

  it('refuses a query whose requested cost is over 1,000 points, as the platform does', async () => {
    const costly = await (await ask('shpat_a', '{ shop { a: name } products(first: 250) { nodes { variants(first: 10) { nodes { id } } } } }')).json();
    expect(costly).toEqual({ errors: [{ message: expect.stringMatching(/^Query cost is 3253, which exceeds/), extensions: { code: 'MAX_COST_EXCEEDED', cost: 3253, maxCost: 1000 } }] });
  });

  it('serves its plain routes and 404 elsewhere', async () => {
    expect((await fetch(platform.url + '/admin/oauth/access_token', { method: 'POST', body: 'x=1' })).status).toBe(200);
    expect(seen).toEqual(['x=1']);
    expect((await fetch(platform.url + '/nowhere')).status).toBe(404);
  });
});
