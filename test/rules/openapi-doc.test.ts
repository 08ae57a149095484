import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('describes GET /rules with its 200 body, 304 and cache headers, and both widget routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const rules = doc.paths['/api/v1/rules'].get;
    expect(rules.responses['200'].content['application/json'].schema.properties).toHaveProperty('baseCurrency');
    expect(rules.responses['200'].headers).toHaveProperty('ETag');
    expect(rules.responses['304'].headers).toHaveProperty('Cache-Control');
    expect(rules.responses['304'].content).toBeUndefined();
    const widgets = doc.paths['/api/v1/widgets'];
    expect(Object.keys(widgets).sort()).toEqual(['get', 'put']);
    expect(widgets.put.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['toast', 'promoPopup', 'progressBar', 'giftChoice', 'reminder', 'customCode']),
    );
  });
});
