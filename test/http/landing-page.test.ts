import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

describe('GET / (the landing page)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers HTML that links the admin, the API reference and the health check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const href of ['/app/', '/docs', '/api/v1/openapi.json', '/healthz']) expect(res.body).toContain(`href="${href}"`);
    expect(res.body).not.toMatch(/https?:\/\//);
  });

  it('leaves every other unknown path a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: expect.any(String) });
  });
});
