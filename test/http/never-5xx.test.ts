/**
 * "A clear 4xx with a JSON error for every bad input; never a 5xx", on every route (each
 * public route on both mounts, the admin API's own routes, and the storefront routes on the
 * app proxy, signed, and with a storefront token):
 * - random JSON bodies and query strings;
 * - valid bodies with one string (a value or a key, at any depth) replaced by arbitrary text:
 *   NUL, lone UTF-16 surrogates, any code point (`unit: 'binary'`);
 * - raw path segments and query strings: percent-encoded NUL and quotes, `%ZZ`, overlong and
 *   surrogate UTF-8, arbitrary bytes.
 * Every error answer is a JSON object with `error`, `code` and `requestId`. The suite runs on
 * PGlite and, with TEST_DATABASE_URL set, on PostgreSQL: both stores refuse NUL. The bodies and
 * generators are in never-5xx-fixtures.ts, the pinned regressions in never-5xx-regressions.test.ts.
 */
import { isStorableText } from '@gcrs/engine';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnlyRoutes } from '../../src/admin-routes.ts';
import { signAppProxyQuery } from '../../src/platform/signatures.ts';
import { publicShopRoutes } from '../../src/routes.ts';
import { storefrontRoutes } from '../../src/storefront/routes.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { campaign, context, nastyText, percentEncode, rawSegment, slotsOf, variant, writeSlot } from './never-5xx-fixtures.ts';
import type { Slot } from './never-5xx-fixtures.ts';

let t: TestApp;
let shop: TestShop;
let campaignId: string;
let ruleIds: [string, string];
let shopDomain: string;
let storefrontToken: string;
const APP_SECRET = 'never-5xx-app-secret';
const ORIGIN = 'https://shop.example';
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SCALE: '1000', PLATFORM_APP_SECRET: APP_SECRET });
  shop = await t.createShop('scale');
  const res = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [campaign('fuzz target')] } });
  campaignId = (res.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
  const read = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` });
  const rules = (read.json() as { campaign: { rules: Array<{ id: string }> } }).campaign.rules;
  ruleIds = [rules[0]?.id ?? '', rules[1]?.id ?? ''];
  shopDomain = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}` })).json().shop.domain;
  const created = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/storefront-tokens`, payload: { allowedOrigins: [ORIGIN] } });
  storefrontToken = created.json().token;
});
afterAll(() => t.close());

/** A valid body per `METHOD path` (paths as mounted, with `:params`); unknown routes get none. */
const VALID_BODIES: Record<string, () => unknown> = {
  'POST /campaigns/import': () => ({ campaigns: [campaign('imported')] }),
  'PUT /campaigns/:id': () => campaign('replaced', ruleIds),
  'POST /campaigns/:id/schedule': () => ({ startAt: '2030-01-01T00:00:00.000Z', endAt: null }),
  'PUT /widgets': () => ({
    toast: { enabled: false, message: 'added' },
    promoPopup: { title: 'Gift', imageUrl: '/gift.png', ctaUrl: 'https://shop.example/gift' },
    progressBar: { thresholds: [{ amountCents: 5000 }], message: 'more' },
    giftChoice: { title: 'Pick' },
    reminder: { message: 'Remember' },
    customCode: { html: '<b>', css: 'b{}', js: '1' },
  }),
  'POST /events': () => ({
    events: [{ type: 'gift_added', campaignId, ruleId: ruleIds[0], variantId: variant, cartToken: 'cart-1' }],
    visitorId: 'visitor-1',
    sessionId: 'session-1',
    market: 'eu',
    locale: 'en-US',
    pageUrl: 'https://shop.example/cart',
  }),
  'POST /evaluate': context,
  'POST /shops/:shopId/simulate': () => ({ campaignId, context: context() }),
  'POST /shops/:shopId/api-keys': () => ({ name: 'fuzz key' }),
  'POST /shops/:shopId/storefront-tokens': () => ({ allowedOrigins: ['https://shop.example', 'http://localhost:3000'] }),
  'PATCH /shops/:shopId': () => ({ timezone: 'UTC', settings: { checkout: { minOrderTotalMessage: 'Spend more' } } }),
  'POST /shops/:shopId/catalog': () => ({
    products: [
      {
        id: 'gid://shopify/Product/7',
        title: 'Mug',
        status: 'active',
        variants: [{ id: variant, title: 'Blue', inventoryQuantity: 3, inventoryPolicy: 'DENY' }],
      },
    ],
    collections: [{ id: 'gid://shopify/Collection/1', handle: 'summer', productIds: ['gid://shopify/Product/7'] }],
  }),
  'POST /shops/:shopId/webhook-endpoints': () => ({ url: 'https://hooks.example/gifts', events: [] }),
  'POST /shops/:shopId/orders': () => ({
    id: 'order-1',
    customerId: '42',
    completedAt: '2026-01-01T00:00:00.000Z',
    currency: 'USD',
    total: 1000,
    lines: [{ productId: '7', variantId: '1', quantity: 1, price: 1000, attributes: { _svc_campaign_id: campaignId } }],
  }),
  'POST /shops/:shopId/campaigns/:campaignId/experiments': () => ({
    primaryMetric: 'conversion_rate',
    variants: [
      { name: 'A', ruleId: ruleIds[0], weight: 1 },
      { name: 'B', ruleId: ruleIds[1], weight: 1 },
    ],
  }),
  'POST /shops/:shopId/campaigns/:campaignId/experiments/:experimentId/conclude': () => ({ winnerVariantId: 'var_x' }),
  'POST /shops': () => ({ domain: 'fuzz.example.com', plan: 'scale', currency: 'USD', timezone: 'UTC' }),
};

/** A route as mounted; `bodyKey` names its entry in VALID_BODIES (public routes: their unmounted path). */
type Target = { method: string; path: string; mount: 'api' | 'admin' | 'proxy' | 'token'; bodyKey: string };

function targets(): Target[] {
  const unmounted = (route: { method: string; path: string }) => ({ method: route.method, path: route.path, bodyKey: `${route.method} ${route.path}` });
  const publicRoutes = publicShopRoutes(t.ctx).map(unmounted);
  const storefront = storefrontRoutes(t.ctx);
  return [
    ...publicRoutes.map((route) => ({ ...route, mount: 'api' as const })),
    ...publicRoutes.map((route) => ({ ...route, path: `/shops/:shopId${route.path}`, mount: 'admin' as const })),
    ...adminOnlyRoutes(t.ctx).map((route) => {
      const path = route.scope === 'shop' ? `/shops/:shopId${route.path}` : route.path;
      return { method: route.method, path, mount: 'admin' as const, bodyKey: `${route.method} ${path}` };
    }),
    ...storefront.proxy.map((route) => ({ ...unmounted(route), mount: 'proxy' as const })),
    ...storefront.token.map((route) => ({ ...unmounted(route), mount: 'token' as const })),
  ];
}

/** A well-formed value for a path parameter; DELETE gets a missing id so the fuzz target survives. */
function validParam(name: string, method: string): string {
  if (method === 'DELETE') return name === 'productId' ? '8' : `${name.replace(/Id$/, '')}_missing`;
  switch (name) {
    case 'shopId':
      return shop.id;
    case 'id':
    case 'campaignId':
      return campaignId;
    case 'productId':
      return '7';
    default:
      return `${name.replace(/Id$/, '')}_missing`;
  }
}

function send(target: Target, url: string, payload?: string): Promise<LightMyRequestResponse> {
  const body = payload === undefined ? {} : { payload };
  const headers = payload === undefined ? {} : { 'content-type': 'application/json' };
  const method = target.method as 'GET';
  if (target.mount === 'proxy') {
    // Signed as the platform forwards it: the fuzzed query is the shopper's part.
    const at = url.indexOf('?');
    const [path, search] = at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
    const signed = signAppProxyQuery(search, { shop: shopDomain, loggedInCustomerId: '42' }, APP_SECRET);
    return t.app.inject({ method, url: `/proxy${path}?${signed}`, headers, ...body });
  }
  if (target.mount === 'token') {
    return t.app.inject({ method, url: `/storefront/v1${url}`, headers: { ...headers, 'x-storefront-token': storefrontToken, origin: ORIGIN }, ...body });
  }
  const options = { method, url: `${target.mount === 'admin' ? '/admin/v1' : '/api/v1'}${url}`, headers, ...body };
  return target.mount === 'admin' ? t.admin(options) : t.api(shop, options);
}

const withBody = (method: string) => method !== 'GET' && method !== 'DELETE';

/** The property every answer must have: below 500, and an error is `{ error, code, requestId }`. */
function expectClearAnswer(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = res.json() as Record<string, unknown>;
    expect(typeof body.error, what).toBe('string');
    expect(typeof body.code, what).toBe('string');
    expect(body.requestId, what).toBe(res.headers['x-request-id']);
  }
}


describe('bad input never yields a 5xx', () => {
  // Without this the mutation property below would be vacuous: a body refused for another
  // reason would pass the "unstorable text is refused" check without reaching it.
  it('starts from bodies each route accepts', async () => {
    for (const target of targets()) {
      const body = VALID_BODIES[target.bodyKey];
      if (!body) continue;
      const path = target.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => validParam(name, target.method));
      const res = await send(target, path, JSON.stringify(body()));
      // Only the conclude route names an experiment that does not exist (no valid id to give it).
      const expected = target.path.endsWith('/conclude') ? 404 : 299;
      expect(res.statusCode, `${target.method} ${path} → ${res.body.slice(0, 300)}`).toBeLessThanOrEqual(expected);
      if (expected === 404) expect(res.json()).toMatchObject({ error: 'Experiment not found' });
    }
  });

  it('holds for random bodies and queries on every route', async () => {
    const all = targets();
    const queryValue = fc.oneof(nastyText, fc.integer().map(String), fc.constantFrom('', '0', '-1', 'true', 'null', '2026-02-30', '%00'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...all),
        fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }),
        fc.dictionary(fc.constantFrom('page', 'perPage', 'enabled', 'from', 'to', 'customerId', 'campaignId', 'force', 'status', 'limit'), queryValue),
        async (target, body, query) => {
          const path = target.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => validParam(name, target.method));
          // Query values go out percent-encoded byte by byte: querystring would throw on a lone surrogate.
          const search = Object.entries(query).map(([key, value]) => `${key}=${percentEncode(Buffer.from(value, 'utf8'))}`).join('&');
          const url = search === '' ? path : `${path}?${search}`;
          const res = await send(target, url, withBody(target.method) ? JSON.stringify(body) : undefined);
          expectClearAnswer(res, `${target.method} ${url}`);
        },
      ),
      { numRuns: 250 },
    );
  }, 180_000);

  it('holds for a valid body with one string or key replaced by arbitrary text, and refuses unstorable text', async () => {
    const withValidBody = targets().filter((target) => VALID_BODIES[target.bodyKey] !== undefined);
    expect(withValidBody.length).toBeGreaterThanOrEqual(Object.keys(VALID_BODIES).length);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withValidBody), fc.nat(), nastyText, async (target, pick, text) => {
        const body = (VALID_BODIES[target.bodyKey] as () => unknown)();
        const slots = slotsOf(body);
        const slot = slots[pick % slots.length] as Slot;
        const mutated = writeSlot(body, slot, text);
        const path = target.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => validParam(name, target.method));
        const res = await send(target, path, JSON.stringify(mutated));
        const what = `${target.method} ${path} with ${JSON.stringify(text)} as the ${slot.kind} at ${JSON.stringify(slot.path)}`;
        expectClearAnswer(res, what);
        // Text no store can keep is never stored: a value slot always holds a field the schema reads.
        // and it is the schema that refuses it, naming the field (the storage net has no `path`).
        if (slot.kind === 'value' && !isStorableText(text)) {
          expect(res.statusCode, what).toBe(400);
          expect((res.json() as { path?: unknown }).path, what).toEqual(slot.path);
        }
      }),
      { numRuns: 300 },
    );
  }, 180_000);

  it('holds for raw path segments and query strings on every route', async () => {
    const withParams = targets().filter((target) => target.path.includes(':'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withParams),
        fc.nat(),
        rawSegment,
        fc.option(fc.tuple(fc.constantFrom('page', 'perPage', 'from', 'customerId', 'campaignId', 'force', 'limit'), rawSegment)),
        async (target, pick, segment, query) => {
          const names = [...target.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);
          const raw = names[pick % names.length];
          const path = target.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === raw ? segment : validParam(name, target.method)));
          const url = query === null ? path : `${path}?${query[0]}=${query[1]}`;
          const body = VALID_BODIES[target.bodyKey];
          const res = await send(target, url, withBody(target.method) ? JSON.stringify(body ? body() : {}) : undefined);
          expectClearAnswer(res, `${target.method} ${url}`);
        },
      ),
      { numRuns: 300 },
    );
  }, 180_000);
});
