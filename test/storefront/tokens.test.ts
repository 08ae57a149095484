/**
 * Publishable storefront tokens (CONTRACT "Storefront", 2.): the admin routes that manage
 * them, and `/storefront/v1/*` behind them, with CORS for their allowed origins only.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefrontTokens } from '../../src/db/schema.ts';
import { rule } from '../campaigns/fixtures.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { createDomainShop, createLiveCampaign, createToken } from './helpers.ts';
import type { StorefrontShop } from './helpers.ts';

const ORIGIN = 'https://shop.example.com';

let t: TestApp;
let shop: StorefrontShop;
let other: StorefrontShop;
let token: string;
let otherToken: string;
let ruleIds: string[];
let otherRuleIds: string[];

beforeAll(async () => {
  t = await createTestApp();
  [shop, other] = await Promise.all([createDomainShop(t, 'free'), createDomainShop(t, 'scale')]);
  ({ ruleIds } = await createLiveCampaign(t, shop.id, [rule('Spend 50')]));
  ({ ruleIds: otherRuleIds } = await createLiveCampaign(t, other.id, [rule('Other')]));
  token = (await createToken(t, shop.id, [ORIGIN, 'http://localhost:3001'])).token;
  otherToken = (await createToken(t, other.id, ['https://other.example.com'])).token;
});
afterAll(() => t.close());

const storefront = (path: string, headers: Record<string, string>, options: { method?: 'GET' | 'POST'; payload?: object } = {}) =>
  t.app.inject({ method: options.method ?? 'GET', url: `/storefront/v1/${path}`, headers, ...(options.payload ? { payload: options.payload } : {}) });
const ruleIdsOf = (res: LightMyRequestResponse) => (res.json() as { rules: Array<{ id: string }> }).rules.map((r) => r.id);

describe('admin storefront-token routes', () => {
  it('creates a token shown once, lists tokens without their values, stores only a hash', async () => {
    const created = await createToken(t, shop.id, ['https://Headless.Example.com:443/', 'http://127.0.0.1:8080']);
    expect(created.token).toMatch(/^spk_[0-9A-Za-z]{16}_[0-9A-Za-z]{32}$/);
    expect(created.storefrontToken).toMatchObject({
      id: expect.stringMatching(/^sft_/),
      prefix: created.token.slice(0, 25),
      // Stored as browsers send Origin: lowercase host, default port dropped.
      allowedOrigins: ['https://headless.example.com', 'http://127.0.0.1:8080'],
    });
    const list = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/storefront-tokens` });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    expect(list.json().storefrontTokens.map((r: { id: string }) => r.id)).toContain(created.storefrontToken.id);
    const rows = await t.ctx.db.select().from(storefrontTokens);
    expect(JSON.stringify(rows)).not.toContain(created.token);
  });

  it.each([
    [[], 'allowedOrigins must name at least one origin'],
    [['https://shop.example.com/path'], undefined],
    [['shop.example.com'], undefined],
    [['ftp://shop.example.com'], undefined],
    [['https://user:pw@shop.example.com'], undefined],
    [['https://shop.example.com?x=1'], undefined],
    [['*'], undefined],
  ])('refuses allowedOrigins %j with a 400 naming the field', async (allowedOrigins, issue) => {
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/storefront-tokens`, payload: { allowedOrigins } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid storefront token body', path: expect.arrayContaining(['allowedOrigins']) });
    if (issue) expect(res.json().issue).toBe(issue);
  });

  it("revokes: 401 from the next request on; another shop's token id is not found", async () => {
    const created = await createToken(t, shop.id);
    expect((await storefront('rules', { 'x-storefront-token': created.token })).statusCode).toBe(200);
    const foreign = await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${other.id}/storefront-tokens/${created.storefrontToken.id}` });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(errorBody('Storefront token not found', 'not_found'));
    const revoked = await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/storefront-tokens/${created.storefrontToken.id}` });
    expect(revoked.statusCode).toBe(200);
    const after = await storefront('rules', { 'x-storefront-token': created.token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    const list = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/storefront-tokens` });
    expect(list.json().storefrontTokens.map((r: { id: string }) => r.id)).not.toContain(created.storefrontToken.id);
  });
});

describe('/storefront/v1 with a token', () => {
  it("serves the token's shop's rules on any plan, with CORS for the allowed origin", async () => {
    const res = await storefront('rules', { 'x-storefront-token': token, origin: ORIGIN });
    expect(res.statusCode, res.body).toBe(200);
    expect(ruleIdsOf(res)).toEqual(ruleIds);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-expose-headers']).toContain('ETag');
    expect(String(res.headers.vary)).toMatch(/Accept-Encoding/);
    expect(String(res.headers.vary)).toMatch(/Origin/);
    expect(res.json().collections).toEqual({});
    const notModified = await storefront('rules', { 'x-storefront-token': token, origin: ORIGIN, 'if-none-match': String(res.headers.etag) });
    expect(notModified.statusCode).toBe(304);
  });

  it("never reads another shop: each token gets its own shop's rules", async () => {
    expect(ruleIdsOf(await storefront('rules', { 'x-storefront-token': otherToken }))).toEqual(otherRuleIds);
    expect(ruleIdsOf(await storefront('rules', { 'x-storefront-token': token }))).toEqual(ruleIds);
    // A token of one shop with its shop part swapped for another's names no live token.
    const swapped = token.replace(shop.id.slice(4), other.id.slice(4));
    expect((await storefront('rules', { 'x-storefront-token': swapped })).statusCode).toBe(401);
  });

  it('answers 403 without CORS headers from an origin the token does not allow', async () => {
    for (const origin of ['https://attacker.example', 'https://shop.example.com:8443', 'http://shop.example.com', 'null']) {
      const res = await storefront('rules', { 'x-storefront-token': token, origin });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({ error: 'Origin not allowed', code: 'forbidden' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/Origin/);
    }
  });

  it('answers 401 for a missing, malformed or unknown token', async () => {
    const attempts: Array<Record<string, string>> = [{}, { 'x-storefront-token': '' }, { 'x-storefront-token': 'spk_nope' }, { 'x-storefront-token': `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` }];
    for (const headers of attempts) {
      const res = await storefront('rules', { ...headers, origin: ORIGIN });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('answers preflights for any http(s) origin, granting the route\'s method and the token header', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/storefront/v1/events',
      headers: { origin: 'https://anyone.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-storefront-token, content-type' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://anyone.example');
    expect(res.headers['access-control-allow-methods']).toBe('POST');
    expect(res.headers['access-control-allow-headers']).toMatch(/X-Storefront-Token/);
    expect(String(res.headers.vary)).toMatch(/Origin/);
    const odd = await t.app.inject({ method: 'OPTIONS', url: '/storefront/v1/rules', headers: { origin: 'null', 'access-control-request-method': 'GET' } });
    expect(odd.statusCode).toBe(204);
    expect(odd.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('ingests events through the same ingest as the API', async () => {
    const res = await storefront(
      'events',
      { 'x-storefront-token': token, origin: ORIGIN },
      { method: 'POST', payload: { events: [{ type: 'gift_added', campaignId: 'cmp_x', ruleId: ruleIds[0], variantId: 'gid://shopify/ProductVariant/1' }] } },
    );
    // The rule is the shop's but not of the campaign named: dropped, as on the API.
    expect(res.json()).toEqual({ ok: true, count: 0 });
  });

  it('has no redemptions route (no signed customer): 404', async () => {
    const res = await storefront('redemptions', { 'x-storefront-token': token, origin: ORIGIN });
    expect(res.statusCode).toBe(404);
  });

  it('is opened by a storefront token only: an API key gets 401 here, and a token gets 401 on /api/v1', async () => {
    const scale = await t.createShop('scale');
    const withKey = await storefront('rules', { 'x-storefront-token': scale.key });
    expect(withKey.statusCode).toBe(401);
    const bearer = await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers: { authorization: `Bearer ${scale.key}` } });
    expect(bearer.statusCode).toBe(401);
    for (const headers of [{ authorization: `Bearer ${token}` }, { 'x-storefront-token': token }]) {
      const api = await t.app.inject({ method: 'GET', url: '/api/v1/rules', headers });
      expect(api.statusCode).toBe(401);
    }
    const admin = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/rules`, headers: { authorization: `Bearer ${token}` } });
    expect(admin.statusCode).toBe(401);
  });
});
