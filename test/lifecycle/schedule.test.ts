/** SPEC "POST /campaigns/:id/schedule": set or clear startAt/endAt; every bad body is a 400. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { campaign } from '../campaigns/fixtures.ts';

let t: TestApp;
let shop: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
});
afterAll(() => t.close());

async function create(extra: Record<string, unknown> = {}): Promise<string> {
  // Through the admin mount: the import rate limit (10 a minute) is not what this file tests.
  const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign('Scheduled', extra)] } });
  const id = (res.json() as { campaignIds: string[] }).campaignIds[0];
  if (!id) throw new Error(res.body);
  return id;
}

const schedule = (id: string, payload: unknown) => t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${id}/schedule`, payload: payload as object });
const read = async (id: string) =>
  ((await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json() as { campaign: Record<string, unknown> }).campaign;

describe('happy paths', () => {
  it('sets both, normalising to UTC with milliseconds', async () => {
    const id = await create();
    const res = await schedule(id, { startAt: '2030-01-01T02:00:00+02:00', endAt: '2030-02-01T00:00:00Z' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, campaign: { id, startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-02-01T00:00:00.000Z' } });
    expect(await read(id)).toMatchObject({ startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-02-01T00:00:00.000Z', enabled: false, isDraft: true });
  });

  it('sets one and keeps the other; null clears', async () => {
    const id = await create({ startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-03-01T00:00:00.000Z' });
    expect((await schedule(id, { endAt: '2030-04-01T00:00:00.000Z' })).json()).toEqual({
      ok: true,
      campaign: { id, startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-04-01T00:00:00.000Z' },
    });
    expect((await schedule(id, { startAt: null })).json()).toMatchObject({ campaign: { startAt: null, endAt: '2030-04-01T00:00:00.000Z' } });
    expect((await schedule(id, { startAt: null, endAt: null })).json()).toMatchObject({ campaign: { startAt: null, endAt: null } });
  });

  it('leaves enabled as it was', async () => {
    const id = await create({ enabled: true, isDraft: false });
    await schedule(id, { endAt: '2031-01-01T00:00:00.000Z' });
    expect(await read(id)).toMatchObject({ enabled: true, isDraft: false });
  });

  it('works on the admin mount', async () => {
    const id = await create();
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/${id}/schedule`, payload: { startAt: '2030-01-01T00:00:00.000Z' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('400s', () => {
  it.each([
    ['an empty body', {}, []],
    ['only unknown fields', { enabled: true }, []],
    ['a date without time', { startAt: '2030-01-01' }, ['startAt']],
    ['an impossible date', { startAt: '2030-02-30T00:00:00Z' }, ['startAt']],
    ['a month 13', { endAt: '2030-13-01T00:00:00Z' }, ['endAt']],
    ['a number', { startAt: 1893456000000 }, ['startAt']],
    ['free text', { endAt: 'next tuesday' }, ['endAt']],
    ['endAt equal to startAt', { startAt: '2030-01-01T00:00:00Z', endAt: '2030-01-01T00:00:00.000Z' }, ['endAt']],
    ['endAt before startAt', { startAt: '2030-01-02T00:00:00Z', endAt: '2030-01-01T00:00:00Z' }, ['endAt']],
  ])('for %s', async (_what, payload, path) => {
    const id = await create();
    const res = await schedule(id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', issue: expect.any(String), path });
    expect(await read(id)).toMatchObject({ startAt: null, endAt: null });
  });

  it('for a non-JSON or missing body', async () => {
    const id = await create();
    expect((await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${id}/schedule` })).statusCode).toBe(400);
    const text = await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${id}/schedule`, headers: { 'content-type': 'application/json' }, payload: '[1' });
    expect(text.statusCode).toBe(400);
  });

  it('checks a single field against the stored other one', async () => {
    const id = await create({ startAt: '2030-01-10T00:00:00.000Z', endAt: '2030-01-20T00:00:00.000Z' });
    const early = await schedule(id, { endAt: '2030-01-05T00:00:00.000Z' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual(
      errorBody('Invalid request body', 'validation', {
        issue: 'endAt must be after startAt (2030-01-10T00:00:00.000Z)',
        path: ['endAt'],
      }),
    );
    const late = await schedule(id, { startAt: '2030-01-20T00:00:00.000Z' });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ path: ['startAt'] });
    expect(await read(id)).toMatchObject({ startAt: '2030-01-10T00:00:00.000Z', endAt: '2030-01-20T00:00:00.000Z' });
    // Clearing one side lifts the constraint.
    expect((await schedule(id, { startAt: '2030-02-01T00:00:00.000Z', endAt: null })).statusCode).toBe(200);
  });
});

describe('404s', () => {
  it('for an unknown id and for another shop\'s campaign', async () => {
    const other = await t.createShop('scale');
    const id = await create();
    const unknown = await schedule('cmp_unknown', { startAt: null });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(errorBody('Campaign not found', 'not_found'));
    const cross = await t.api(other, { method: 'POST', url: `/api/v1/campaigns/${id}/schedule`, payload: { startAt: null } });
    expect(cross.statusCode).toBe(404);
  });

  it('validates the body before looking the campaign up', async () => {
    expect((await schedule('cmp_unknown', {})).statusCode).toBe(400);
  });
});

describe('enable and disable', () => {
  it('answer 404 for unknown ids', async () => {
    for (const action of ['enable', 'disable']) {
      const res = await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/cmp_unknown/${action}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found'));
    }
  });

  it('answer 405 with Allow for other methods', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns/cmp_x/enable' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});
