/**
 * Both OpenAPI documents as a client generator needs them (issue 8): the admin document served
 * only with the admin token; in both, named recursive components, a discriminator mapping, a
 * schema on every error response, the headers the service sends, and no dangling reference.
 * The strict linter itself runs in `npm run openapi:check`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnlyRoutes } from '../../src/admin-routes.ts';
import { publicShopRoutes } from '../../src/routes.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

type Json = Record<string, unknown>;
type Operation = { operationId: string; security?: unknown; responses: Record<string, Json>; parameters: Json[] };
type Doc = {
  openapi: string;
  security: unknown;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, Json>>;
};

let t: TestApp;
let shop: TestShop;
const docs: { public?: Doc; admin?: Doc } = {};
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  docs.public = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Doc;
  docs.admin = (await t.admin({ method: 'GET', url: '/admin/v1/openapi.json' })).json() as Doc;
});
afterAll(() => t.close());

const both = () => {
  if (!docs.public || !docs.admin) throw new Error('documents not loaded');
  return [
    ['public', docs.public],
    ['admin', docs.admin],
  ] as const;
};

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

/** A response object, following a `$ref` into components.responses. */
const resolveResponse = (doc: Doc, response: Json): Json => {
  const ref = response.$ref;
  if (typeof ref !== 'string') return response;
  return doc.components.responses?.[ref.replace('#/components/responses/', '')] ?? {};
};

describe('GET /admin/v1/openapi.json', () => {
  it('answers only with the admin token', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: `Bearer ${shop.key}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/admin/v1/openapi.json', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody('Unauthorized', 'unauthorized'));
    }
    const res = await t.admin({ method: 'GET', url: '/admin/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ openapi: '3.1.0', security: [{ adminToken: [] }] });
  });

  it('documents every admin-only route and every public route on the shop mount, and no /api/v1 route', () => {
    const doc = docs.admin as Doc;
    for (const route of adminOnlyRoutes(t.ctx)) {
      const prefix = route.scope === 'shop' ? '/admin/v1/shops/{shopId}' : '/admin/v1';
      const path = `${prefix}${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
      expect(doc.paths[path]?.[route.method.toLowerCase()]?.operationId, `${route.method} ${path}`).toBe(route.operationId);
    }
    for (const route of publicShopRoutes(t.ctx)) {
      const path = `/admin/v1/shops/{shopId}${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op?.operationId, `${route.method} ${path}`).toBe(route.operationId);
      expect(op?.parameters[0]).toEqual({ $ref: '#/components/parameters/ShopId' });
      expect(op?.responses).toHaveProperty('404');
    }
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/admin/v1/'))).toEqual([]);
    expect(doc.components.securitySchemes).toHaveProperty('adminToken');
    expect(doc.components.securitySchemes).not.toHaveProperty('apiKey');
  });

  it('documents the simulator with its body and the traced results', () => {
    const simulate = docs.admin?.paths['/admin/v1/shops/{shopId}/simulate']?.post as unknown as Json;
    expect(JSON.stringify(simulate.requestBody)).toContain('campaignId');
    expect(JSON.stringify(simulate.responses)).toContain('"$ref":"#/components/schemas/ConditionTrace"');
  });
});

describe.each(['public', 'admin'] as const)('the %s document', (which) => {
  const doc = () => {
    const found = both().find(([name]) => name === which);
    if (!found) throw new Error(which);
    return found[1];
  };

  it('names the evaluation trace as a recursive component', () => {
    const trace = doc().components.schemas?.ConditionTrace as { properties: { children: { items: Json } } };
    expect(trace.properties.children.items).toEqual({ $ref: '#/components/schemas/ConditionTrace' });
    expect(JSON.stringify(doc().paths)).toContain('"$ref":"#/components/schemas/ConditionTrace"');
    expect(JSON.stringify(doc().paths)).not.toContain('urn:gcrs');
  });

  it('maps every type of the condition tree in its discriminator', () => {
    const node = doc().components.schemas?.ConditionNode as { oneOf: Array<{ $ref: string }>; discriminator: { propertyName: string; mapping: Record<string, string> } };
    expect(node.discriminator.propertyName).toBe('type');
    expect(Object.values(node.discriminator.mapping).sort()).toEqual(node.oneOf.map((branch) => branch.$ref).sort());
    expect(node.discriminator.mapping['AND']).toBe('#/components/schemas/AndNode');
    expect(node.discriminator.mapping['cart.subtotal_gte']).toBe('#/components/schemas/CartSubtotalGteLeaf');
  });

  it('gives every error response a schema and every response X-Request-Id', () => {
    for (const { path, method, op } of operations(doc())) {
      for (const [status, raw] of Object.entries(op.responses)) {
        const response = resolveResponse(doc(), raw) as { content?: Record<string, { schema?: unknown }>; headers?: Json };
        const where = `${method} ${path} ${status}`;
        if (Number(status) >= 400) expect(response.content?.['application/json']?.schema, where).toBeDefined();
        expect(response.headers?.['X-Request-Id'], where).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = [...JSON.stringify(doc()).matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(10);
    for (const [, kind = '', name = ''] of refs) expect(doc().components[kind], `${kind}/${name}`).toHaveProperty(name);
  });
});

describe('the public document', () => {
  it('declares the limit headers, Retry-After on 429, ETag and Cache-Control on GET /rules, and its 304', () => {
    const doc = docs.public as Doc;
    for (const { path, method, op } of operations(doc)) {
      expect(resolveResponse(doc, op.responses['429'] ?? {}).headers, `${method} ${path}`).toMatchObject({
        'Retry-After': { $ref: '#/components/headers/Retry-After' },
        'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
        RateLimit: { $ref: '#/components/headers/RateLimit' },
      });
      const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
      expect(ok?.[1].headers, `${method} ${path}`).toHaveProperty('RateLimit-Policy');
    }
    const rules = doc.paths['/api/v1/rules']?.get as Operation;
    expect(rules.responses['200']?.headers).toMatchObject({ ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { $ref: '#/components/headers/Cache-Control' } });
    expect(rules.responses['304']?.headers).toHaveProperty('ETag');
    expect(rules.responses['304']?.content).toBeUndefined();
    expect(rules.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }));
    expect(doc.components.securitySchemes).not.toHaveProperty('adminToken');
  });

  it('sends the headers it declares (a 429 from the app carries the three limit fields)', async () => {
    const limited = await createTestApp({ RATE_LIMIT_SCALE: '0.01' });
    try {
      const s = await limited.createShop('scale');
      let res = await limited.api(s, { method: 'GET', url: '/api/v1/analytics?from=2026-01-01&to=2026-01-02' });
      for (let i = 0; i < 5 && res.statusCode !== 429; i += 1) {
        res = await limited.api(s, { method: 'GET', url: '/api/v1/analytics?from=2026-01-01&to=2026-01-02' });
      }
      expect(res.statusCode).toBe(429);
      for (const name of ['x-request-id', 'retry-after', 'ratelimit-policy', 'ratelimit']) expect(res.headers, name).toHaveProperty(name);
    } finally {
      await limited.close();
    }
  });
});
