import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

describe('SPEC conventions', () => {
  let t: TestApp;
  let shop: TestShop;
  beforeAll(async () => {
    // A PING slower than REDIS_TIMEOUT_MS reads as down, rightly; a loaded CI machine has taken
    // over 250 ms. The bound itself is tested in redis-down.test.ts.
    t = await createTestApp({ REDIS_TIMEOUT_MS: '5000' });
    shop = await t.createShop('scale');
  });
  afterAll(() => t.close());

  it('serves /healthz once the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(t.ctx.redis ? { ok: true, redis: 'up' } : { ok: true });
  });

  it('puts a unique X-Request-Id on successes, errors and unknown routes', async () => {
    const responses = await Promise.all([
      t.api(shop, { method: 'GET', url: '/api/v1/campaigns' }),
      t.app.inject({ method: 'GET', url: '/api/v1/campaigns' }),
      t.app.inject({ method: 'GET', url: '/nowhere' }),
      t.api(shop, { method: 'GET', url: '/api/v1/campaigns/cmp_missing' }),
    ]);
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ignores a caller-sent X-Request-Id', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns', headers: { 'x-request-id': 'mine' } });
    expect(res.headers['x-request-id']).not.toBe('mine');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(errorBody('Route not found', 'not_found'));
  });

  it.each([
    ['/api/v1/campaigns/cmp_x', 'PATCH', 'GET, PUT, DELETE'],
    ['/api/v1/campaigns/cmp_x', 'POST', 'GET, PUT, DELETE'],
    ['/api/v1/campaigns', 'DELETE', 'GET'],
    ['/api/v1/campaigns/import', 'GET', 'POST'],
  ] as const)('answers %s with %s by 405 and Allow', async (url, method, allow) => {
    const res = await t.api(shop, { method, url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.json()).toEqual(errorBody('Method not allowed', 'method_not_allowed'));
  });

  it('rejects malformed JSON with 400, never 5xx', async () => {
    const res = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      headers: { 'content-type': 'application/json' },
      payload: '{"campaigns": [',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Malformed JSON body' });
  });

  it('rejects an empty JSON body with 400 where the route needs a body', async () => {
    const res = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path: [] });
  });

  it('takes an empty JSON body as no body where SPEC says "No body" (curl -H content-type -X POST)', async () => {
    const imported = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      payload: { campaigns: [{ name: 'No body', rules: [] }] },
    });
    const [id] = (imported.json() as { campaignIds: string[] }).campaignIds;
    for (const action of ['enable', 'disable']) {
      const res = await t.api(shop, {
        method: 'POST',
        url: `/api/v1/campaigns/${String(id)}/${action}`,
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode, action).toBe(200);
    }
  });

  it('rejects a body over the limit with 413', async () => {
    const small = await createTestApp({ BODY_LIMIT_BYTES: '1024' });
    try {
      const s = await small.createShop('scale');
      const res = await small.api(s, {
        method: 'POST',
        url: '/api/v1/campaigns/import',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ campaigns: [{ name: 'x'.repeat(2000) }] }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual(errorBody('Request body too large', 'payload_too_large', { issue: 'The body limit of this route is 1024 bytes' }));
    } finally {
      await small.close();
    }
  });

  it('rejects a non-JSON content type with 415', async () => {
    const res = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toHaveProperty('error');
  });

  it('rejects __proto__ in a body with 400', async () => {
    const res = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/campaigns/import',
      headers: { 'content-type': 'application/json' },
      payload: '{"campaigns":[{"name":"a","__proto__":{"x":1}}]}',
    });
    expect(res.statusCode).toBe(400);
  });
});
