/**
 * The second line of defence: input PostgreSQL refuses as data is a 400, never a 500. The
 * request schemas stop such input before it reaches a store, so these tests reach the
 * database directly (store functions and raw SQL), on the project's real store, and prove
 * the mapping through a Fastify app that uses the service's own error handler.
 */
import { TEXT_ISSUE } from '@gcrs/engine';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '../../src/http/errors.ts';
import { sqlStateOf } from '../../src/db/sql-state.ts';
import { storageRefusalIssue } from '../../src/http/storage-errors.ts';
import { getShop } from '../../src/shops/store.ts';
import { DEFAULT_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { saveWidgetSettings } from '../../src/widgets/store.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let shop: TestShop;
let probe: FastifyInstance;

// Each case reaches the database with input no schema let through in production.
const CASES = {
  'NUL in a text parameter': () => getShop(t.ctx.db, 'shp_\u0000'),
  'NUL in a jsonb document': () =>
    saveWidgetSettings(t.ctx.db, shop.id, { ...DEFAULT_WIDGET_DOCUMENT, toast: { ...DEFAULT_WIDGET_DOCUMENT.toast, message: 'a\u0000' } }),
  'a malformed integer': () => t.ctx.db.execute(sql`select ${'twelve'}::int`),
  'an integer out of range': () => t.ctx.db.execute(sql`select ${'99999999999'}::int`),
  'a date out of range': () => t.ctx.db.execute(sql`select ${'2026-13-45'}::date`),
  'a syntax error (the service is at fault)': () => t.ctx.db.execute(sql.raw('selec 1')),
  // What node-postgres and drizzle throw when the server ended the connection (issue 20, item 1).
  'a terminated connection': () =>
    Promise.reject(new Error('Failed query: begin', { cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) })),
  'a connection closed under a query': () => Promise.reject(new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') })),
  'no connection free in time': () => Promise.reject(new Error('timeout exceeded when trying to connect')),
  'a refused connection': () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
} as const;
type CaseName = keyof typeof CASES;

async function failureOf(name: CaseName): Promise<unknown> {
  try {
    await CASES[name]();
  } catch (error) {
    return error;
  }
  throw new Error(`${name} did not fail`);
}

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  probe = Fastify({ logger: false, genReqId: () => 'req_probe0000000000' });
  probe.setErrorHandler(handleError);
  probe.get('/probe/:name', async (request) => {
    await CASES[(request.params as { name: CaseName }).name]();
    return { ok: true };
  });
  await probe.ready();
});
afterAll(async () => {
  await probe.close();
  await t.close();
});

describe('SQLSTATE along the cause chain', () => {
  it.each([
    ['NUL in a text parameter', '22021', TEXT_ISSUE],
    ['NUL in a jsonb document', '22P05', TEXT_ISSUE],
    ['a malformed integer', '22P02', 'A value is not in the format the field takes'],
    ['an integer out of range', '22003', 'A number is out of range'],
    ['a date out of range', '22008', 'A date or time is out of range'],
  ] as const)('finds %s as %s and names the issue', async (name, state, issue) => {
    const error = await failureOf(name);
    expect(sqlStateOf(error)).toBe(state);
    expect(storageRefusalIssue(error)).toBe(issue);
  });

  it('leaves a fault of the service unmapped', async () => {
    const error = await failureOf('a syntax error (the service is at fault)');
    expect(sqlStateOf(error)).toBe('42601');
    expect(storageRefusalIssue(error)).toBeUndefined();
  });

  it('walks wrapped causes and ignores non-SQLSTATE codes', () => {
    const wrapped = new Error('Failed query', { cause: new Error('driver', { cause: { code: '22P05' } }) });
    expect(sqlStateOf(wrapped)).toBe('22P05');
    expect(sqlStateOf(new Error('plain'))).toBeUndefined();
    expect(sqlStateOf({ code: 'FST_ERR_CTP_BODY_TOO_LARGE' })).toBeUndefined();
    const cyclic: { code?: string; cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(sqlStateOf(cyclic)).toBeUndefined();
  });
});

describe('handleError on a storage refusal', () => {
  it.each([
    ['NUL in a text parameter', TEXT_ISSUE],
    ['NUL in a jsonb document', TEXT_ISSUE],
    ['an integer out of range', 'A number is out of range'],
  ] as const)('answers %s with 400 Invalid input', async (name, issue) => {
    const res = await probe.inject({ method: 'GET', url: `/probe/${encodeURIComponent(name)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody('Invalid input', 'validation', { issue }));
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
  });

  it('still answers a fault of the service with 500 internal', async () => {
    const res = await probe.inject({ method: 'GET', url: `/probe/${encodeURIComponent('a syntax error (the service is at fault)')}` });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual(errorBody('Internal server error', 'internal'));
  });

  it.each(['a terminated connection', 'a connection closed under a query', 'no connection free in time', 'a refused connection'] as const)(
    'answers %s with 503 and Retry-After, the caller may try again',
    async (name) => {
      const res = await probe.inject({ method: 'GET', url: `/probe/${encodeURIComponent(name)}` });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual(errorBody('Database unavailable', 'unavailable'));
    },
  );

  it('leaves the shop untouched after a refused jsonb write', async () => {
    await failureOf('NUL in a jsonb document');
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/widgets' });
    expect(res.json().widgets._version).toBe(0);
  });
});
