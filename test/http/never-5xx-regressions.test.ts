/**
 * Inputs that once answered 5xx and now answer a clear 400 naming the field: a NUL with
 * quotes in a campaign id, in the admin shop path and an API key id, and in an imported
 * campaign name (nothing is stored). never-5xx.test.ts holds the properties that found them.
 * Runs on PGlite and, with TEST_DATABASE_URL set, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { createTestAppWithShop } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let shop: TestShop;
beforeAll(async () => ({ t, shop } = await createTestAppWithShop()));
afterAll(() => t.close());

describe('regressions', () => {
  it('answers GET /api/v1/campaigns/%00%27%22 with 400 on the path parameter', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns/%00%27%22' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      errorBody('Invalid path parameters', 'validation', {
        issue: 'Text must not contain NUL characters or unpaired UTF-16 surrogates',
        path: ['id'],
      }),
    );
  });

  it.each([
    ['the admin shop path', '/admin/v1/shops/%00/campaigns', ['shopId']],
    ['an API key id', `/admin/v1/shops/{shop}/api-keys/key%00`, ['keyId']],
  ])('answers a NUL in %s with 400 naming it', async (_name, template, path) => {
    const url = template.replace('{shop}', shop.id);
    const res = await t.admin({ method: url.includes('api-keys') ? 'DELETE' : 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid path parameters', code: 'validation', path });
  });

  it('answers a NUL in an imported campaign name with 400 and stores nothing', async () => {
    const other = await t.createShop('scale');
    const res = await t.api(other, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name: 'a\u0000b' }] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', path: ['campaigns', 0, 'name'] });
    const list = await t.api(other, { method: 'GET', url: '/api/v1/campaigns' });
    expect((list.json() as { campaigns: unknown[] }).campaigns).toEqual([]);
  });
});
