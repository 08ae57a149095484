/**
 * Every error body carries `error`, the stable `code` and the `requestId` that the
 * X-Request-Id header also carries, whoever raised the error: a route, the router (a
 * malformed URL), Fastify's body parsing, authentication, or the app shutting down.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/http/errors.ts';
import { createTestDatabase } from '../support/database.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let scale: TestShop;
let growth: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  scale = await t.createShop('scale');
  growth = await t.createShop('growth');
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };

// [case, request, status, code, error]
const CASES: ReadonlyArray<[string, () => ReturnType<TestApp['api']>, number, ErrorCode, string]> = [
  ['a bad body', () => t.api(scale, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [] } }), 400, 'validation', 'Invalid request body'],
  ['a NUL in a path id', () => t.api(scale, { method: 'GET', url: '/api/v1/campaigns/%00%27%22' }), 400, 'validation', 'Invalid path parameters'],
  ['malformed JSON', () => t.api(scale, { method: 'POST', url: '/api/v1/campaigns/import', headers: json, payload: '{' }), 400, 'bad_request', 'Malformed JSON body'],
  ['a malformed URL on a route', () => t.api(scale, { method: 'GET', url: '/api/v1/campaigns/%ZZ' }), 400, 'bad_request', 'Malformed URL'],
  ['a malformed URL nowhere', () => t.app.inject({ method: 'GET', url: '/nowhere/%C0%80' }), 400, 'bad_request', 'Malformed URL'],
  ['a path parameter too long', () => t.api(scale, { method: 'GET', url: `/api/v1/campaigns/${'x'.repeat(101)}` }), 414, 'uri_too_long', 'Path parameter too long'],
  ['no key', () => t.app.inject({ method: 'GET', url: '/api/v1/campaigns' }), 401, 'unauthorized', 'Unauthorized'],
  ['a lower plan', () => t.api(growth, { method: 'GET', url: '/api/v1/campaigns' }), 403, 'plan_required', 'API access requires the Scale plan'],
  ['an unknown route', () => t.app.inject({ method: 'GET', url: '/nowhere' }), 404, 'not_found', 'Route not found'],
  ['an unknown campaign', () => t.api(scale, { method: 'GET', url: '/api/v1/campaigns/cmp_missing' }), 404, 'not_found', 'Campaign not found'],
  ['a wrong method', () => t.api(scale, { method: 'PATCH', url: '/api/v1/widgets' }), 405, 'method_not_allowed', 'Method not allowed'],
  ['a text body', () => t.api(scale, { method: 'PUT', url: '/api/v1/widgets', headers: { 'content-type': 'text/plain' }, payload: 'x' }), 415, 'unsupported_media_type', 'Unsupported content type; send application/json'],
];

describe('error bodies', () => {
  it.each(CASES)('carry code and requestId for %s', async (_name, send, status, code, error) => {
    const res = await send();
    expect(res.statusCode).toBe(status);
    const body = res.json() as Record<string, unknown>;
    expect(body).toMatchObject({ error, code });
    expect(body.requestId).toMatch(/^req_[0-9A-Za-z]{16}$/);
    expect(body.requestId).toBe(res.headers['x-request-id']);
  });

  it('lead with error and code and end with requestId', async () => {
    const res = await t.api(scale, { method: 'GET', url: '/api/v1/campaigns/%00' });
    expect(Object.keys(res.json() as object)).toEqual(['error', 'code', 'issue', 'path', 'requestId']);
  });

  it('answers /healthz with 503 unavailable when the database does not answer', async () => {
    const database = await createTestDatabase();
    const down = await createTestApp({}, { database: { ...database, ping: () => Promise.reject(new Error('down')) } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual(errorBody('Database unreachable', 'unavailable'));
    } finally {
      await down.close();
    }
  });

  it('answers requests that reach a draining app with 503 unavailable', async () => {
    const draining = await createTestApp();
    // A socket that was open before the close can still deliver a request; route one in.
    const server = createServer((request, response) => draining.app.routing(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await draining.app.close();
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({ error: 'Service is shutting down', code: 'unavailable', requestId: res.headers.get('x-request-id') });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await draining.close();
    }
  });
});
