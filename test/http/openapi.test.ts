/** The OpenAPI 3.1 document is generated from the route table and its Zod schemas. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/http/errors.ts';
import { publicShopRoutes } from '../../src/routes.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; parameters: Array<{ name: string; in: string }>; requestBody?: unknown }>>;
  components: { schemas: Record<string, unknown> };
};

describe('GET /api/v1/openapi.json', () => {
  let doc: Doc;
  beforeAll(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json() as Doc;
  });

  it('is OpenAPI 3.1 without authentication', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('documents every public route with an operation id and its responses', () => {
    for (const route of publicShopRoutes(t.ctx)) {
      const path = `/api/v1${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op?.operationId).toBe(route.operationId);
      for (const status of Object.keys(route.responses)) expect(op?.responses).toHaveProperty(status);
      expect(op?.responses).toHaveProperty('401');
      expect(op?.responses).toHaveProperty('429');
    }
  });

  it('describes the campaign list query and the recursive condition tree', () => {
    const list = doc.paths['/api/v1/campaigns']?.get;
    expect(list?.parameters.map((p) => p.name).sort()).toEqual(['enabled', 'page', 'perPage']);
    expect(doc.components.schemas).toHaveProperty('ConditionNode');
    expect(doc.components.schemas).toHaveProperty('CartSubtotalGteLeaf');
    expect(JSON.stringify(doc.paths['/api/v1/campaigns/import']?.post?.requestBody)).toContain('#/components/schemas/ConditionNode');
  });

  it('keeps to /api/v1: the admin routes, the simulator included, are in the admin document', () => {
    expect(doc.paths['/api/v1/evaluate']?.post?.operationId).toBe('evaluateRules');
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/v1/'))).toEqual([]);
  });

  it('documents error bodies with error, code and requestId', () => {
    const error = doc.components.schemas.Error as { required: string[]; properties: { code: { enum: string[] } } };
    expect(error.required.sort()).toEqual(['code', 'error', 'requestId']);
    expect(error.properties.code.enum).toEqual(ERROR_CODES);
  });

  it('documents the widget fields SPEC leaves out as optional, with their defaults', () => {
    const body = JSON.stringify(doc.paths['/api/v1/widgets']?.put?.requestBody);
    expect(body).toContain('"position":{"default":"bottom-right"');
    expect(body).toContain('"required":["enabled"]');
    expect(body).toContain('"required":["amountCents"]');
  });

  it('every $ref resolves inside the document', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const name of new Set(refs)) expect(doc.components.schemas, name).toHaveProperty(name);
  });
});

describe('GET /docs', () => {
  it('renders the document as an HTML page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('/api/v1/openapi.json');
    for (const asset of ['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/start.js']) expect(res.body).toContain(asset);
  });

  it('serves the viewer\'s assets from the service, and its start script points at the document', async () => {
    const bundle = await t.app.inject({ method: 'GET', url: '/docs/assets/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.headers['cache-control']).toBe('public, max-age=86400');
    expect(bundle.body).toContain('SwaggerUIBundle');
    const css = await t.app.inject({ method: 'GET', url: '/docs/assets/swagger-ui.css' });
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const start = await t.app.inject({ method: 'GET', url: '/docs/assets/start.js' });
    expect(start.body).toContain("url: '/api/v1/openapi.json'");
    expect(start.body).toContain('validatorUrl: null');
  });

  it('serves no other file of the package: 404 with a JSON error', async () => {
    for (const name of ['index.html', 'package.json', '..%2F..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await t.app.inject({ method: 'GET', url: `/docs/assets/${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.json(), name).toMatchObject({ code: 'not_found' });
    }
  });
});
