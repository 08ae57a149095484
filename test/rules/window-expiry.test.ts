/**
 * The cached payload expires at the next schedule boundary of any live campaign, with no
 * write in between: the app's clock is injected and moved, nothing sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { getRules, importCampaigns } from './helpers.ts';

const clock = { now: new Date('2030-01-01T00:00:00.000Z') };
const at = (iso: string) => {
  clock.now = new Date(iso);
};

let t: TestApp;
let shop: TestShop;
beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock.now });
  shop = await t.createShop('scale');
  at('2030-01-01T00:00:00.000Z');
  await importCampaigns(t, shop, [
    campaign('January', {
      enabled: true,
      isDraft: false,
      startAt: '2030-01-10T00:00:00.000Z',
      endAt: '2030-02-01T00:00:00.000Z',
      rules: [rule('january')],
    }),
    campaign('Always', { enabled: true, isDraft: false, rules: [rule('always')] }),
    // Not live: its window must not cut the segments.
    campaign('Draft', { enabled: true, isDraft: true, startAt: '2030-01-05T00:00:00.000Z', rules: [rule('draft')] }),
  ]);
});
afterAll(() => t.close());

async function read(etag?: string) {
  const res = await getRules(t, shop, 'api', etag === undefined ? {} : { 'if-none-match': etag });
  return {
    status: res.statusCode,
    etag: res.headers.etag as string,
    names: res.statusCode === 200 ? (res.json() as { rules: Array<{ name: string }> }).rules.map((r) => r.name) : undefined,
  };
}

describe('schedule window boundaries', () => {
  it('serves the same cached payload until the next boundary, then a new one with a new ETag', async () => {
    at('2030-01-09T23:59:59.999Z');
    const before = await read();
    expect(before.names).toEqual(['always']);
    expect(before.etag).toContain(String(Date.parse('2030-01-10T00:00:00.000Z')));
    expect(t.ctx.rulesCache.cachedVersion(shop.id)).toBeDefined();

    // Still inside the segment: the cached entry answers, the ETag still validates.
    expect((await read(before.etag)).status).toBe(304);

    at('2030-01-10T00:00:00.000Z');
    const started = await read(before.etag);
    expect(started.status).toBe(200);
    expect(started.names).toEqual(['january', 'always']);
    expect(started.etag).not.toBe(before.etag);

    at('2030-01-31T23:59:59.999Z');
    expect((await read(started.etag)).status).toBe(304);

    at('2030-02-01T00:00:00.000Z');
    const ended = await read(started.etag);
    expect(ended.status).toBe(200);
    expect(ended.names).toEqual(['always']);
    expect(ended.etag).toContain('-open-');
  });

  it('answers correctly when the clock moves back into an earlier segment', async () => {
    at('2030-01-15T00:00:00.000Z');
    expect((await read()).names).toEqual(['january', 'always']);
    at('2030-01-01T00:00:00.000Z');
    expect((await read()).names).toEqual(['always']);
  });
});
