/**
 * SPEC "Limits" through the app: per key, per row, a sliding 60-second window; 429 with
 * Retry-After and SPEC's body; RateLimit headers on limited responses. On the PostgreSQL
 * project the app runs with REDIS_URL, so this suite proves the Redis limiter too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
// 0.05 × SPEC's rows: default 6, import 1 per minute per key.
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SCALE: '0.05' });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('allows the row limit, then answers 429 with Retry-After and SPEC\'s body', async () => {
    const shop = await t.createShop('scale');
    for (let i = 0; i < 6; i += 1) {
      const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=6;w=60');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"default";r=${5 - i};t=(5\\d|60)$`));
    }
    const limited = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(errorBody('Rate limit exceeded', 'rate_limited'));
    // The window opened at the first of these calls: on a loaded machine a few seconds may have passed.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(50);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit']).toMatch(/^"default";r=0;t=\d+$/);
    expect(limited.headers['x-request-id']).toBeTruthy();
  });

  it('counts each row separately and each key separately', async () => {
    const shop = await t.createShop('scale');
    const importOnce = () => t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name: 'x' }] } });
    expect((await importOnce()).statusCode).toBe(200);
    const second = await importOnce();
    expect(second.statusCode).toBe(429);
    expect(second.headers['ratelimit-policy']).toBe('"import";q=1;w=60');
    // The default row of the same key is untouched by the import row.
    expect((await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
    // A second key of the same shop has its own windows.
    const other = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/api-keys`, payload: {} });
    const key = other.json().key as string;
    expect((await t.api(key, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name: 'y' }] } })).statusCode).toBe(200);
  });

  it('is exact under concurrent requests from several clients', async () => {
    const shop = await t.createShop('scale');
    const results = await Promise.all(Array.from({ length: 25 }, () => t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(6);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(19);
  });

  it('does not count requests that fail authentication or the plan check', async () => {
    const shop = await t.createShop('pro');
    for (let i = 0; i < 10; i += 1) {
      expect((await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(403);
    }
  });

  it('does not limit the admin API', async () => {
    const shop = await t.createShop('scale');
    for (let i = 0; i < 10; i += 1) {
      expect((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns` })).statusCode).toBe(200);
    }
  });
});
