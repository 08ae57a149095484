import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { campaigns } from '../../src/db/schema.ts';
import { testDbKind } from '../support/database.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { campaign, rule } from './fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function seed(shop: TestShop, campaigns: unknown[]): Promise<string[]> {
  const res = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns } as Record<string, unknown> });
  expect(res.statusCode).toBe(200);
  return (res.json() as { campaignIds: string[] }).campaignIds;
}

describe('GET /campaigns', () => {
  let shop: TestShop;
  let ids: string[];
  beforeAll(async () => {
    shop = await t.createShop('scale');
    ids = await seed(
      shop,
      Array.from({ length: 7 }, (_, i) => campaign(`c${i}`, { enabled: i % 2 === 0, isDraft: false, rules: i === 0 ? [rule('a'), rule('b')] : [] })),
    );
  });

  it('lists list items with rulesCount and meta', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ total: 7, page: 1, perPage: 50 });
    expect(body.campaigns.map((c: { id: string }) => c.id)).toEqual(ids);
    const first = body.campaigns[0];
    expect(Object.keys(first).sort()).toEqual(
      ['createdAt', 'enabled', 'endAt', 'id', 'isDraft', 'name', 'rulesCount', 'startAt', 'updatedAt'].sort(),
    );
    expect(first.rulesCount).toBe(2);
    expect(first.createdAt).toMatch(ISO_MS);
    expect(first.updatedAt).toMatch(ISO_MS);
  });

  it('pages until the accumulated count reaches meta.total', async () => {
    const seen: string[] = [];
    for (let page = 1; ; page += 1) {
      const res = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns?page=${page}&perPage=3` });
      const body = res.json();
      expect(body.meta).toEqual({ total: 7, page, perPage: 3 });
      seen.push(...body.campaigns.map((c: { id: string }) => c.id));
      if (seen.length >= body.meta.total || body.campaigns.length < 3) break;
    }
    expect(seen).toEqual(ids);
  });

  it('clamps perPage above 100 to 100', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns?perPage=1000' });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.perPage).toBe(100);
  });

  it('returns an empty page past the end', async () => {
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns?page=9' });
    expect(res.json()).toEqual({ campaigns: [], meta: { total: 7, page: 9, perPage: 50 } });
  });

  it.each([
    ['true', 4],
    ['false', 3],
  ])('filters enabled=%s', async (value, count) => {
    const res = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns?enabled=${value}` });
    const body = res.json();
    expect(body.meta.total).toBe(count);
    for (const c of body.campaigns) expect(c.enabled).toBe(value === 'true');
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'perPage=0', 'perPage=x', 'enabled=yes', 'enabled=1'])(
    'rejects %s with 400 and the parameter path',
    async (query) => {
      const res = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns?${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid query parameters', path: [query.split('=')[0]] });
    },
  );

  it('breaks createdAt ties by id in byte order on every store (creation order of time-ordered ids)', async () => {
    const tied = await t.createShop('scale');
    const createdAt = new Date('2026-03-01T00:00:00.000Z');
    // Under a case-folding locale collation `…a` would sort before `…Z`; in byte order Z (0x5A) < a (0x61).
    const ids = ['cmp_0000000000000009', 'cmp_000000000000000Z', 'cmp_000000000000000a'];
    if (testDbKind() === 'postgres') {
      // Give this file's own database a case-folding collation on ids, as a server created with
      // a locale (en_US.UTF-8, common in production) has; the listing must not change.
      await t.ctx.db.execute(sql`ALTER TABLE campaigns ALTER COLUMN id TYPE text COLLATE "en-x-icu"`);
    }
    await t.ctx.db
      .insert(campaigns)
      .values([...ids].reverse().map((id) => ({ shopId: tied.id, id, name: id, enabled: false, isDraft: true, createdAt, updatedAt: createdAt })));
    const res = await t.api(tied, { method: 'GET', url: '/api/v1/campaigns' });
    expect(res.json().campaigns.map((c: { id: string }) => c.id)).toEqual(ids);
  });

  it('shows another shop none of these campaigns', async () => {
    const other = await t.createShop('scale');
    const res = await t.api(other, { method: 'GET', url: '/api/v1/campaigns' });
    expect(res.json()).toEqual({ campaigns: [], meta: { total: 0, page: 1, perPage: 50 } });
  });
});

describe('GET /campaigns/:id', () => {
  it('returns the campaign with parsed rules and a null experiment', async () => {
    const shop = await t.createShop('scale');
    const [id] = await seed(shop, [campaign('One', { startAt: '2026-01-01T10:00:00+02:00', endAt: '2026-02-01T00:00:00Z' })]);
    const res = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` });
    expect(res.statusCode).toBe(200);
    const c = res.json().campaign;
    expect(c).toMatchObject({
      id,
      name: 'One',
      enabled: false,
      isDraft: true,
      startAt: '2026-01-01T08:00:00.000Z',
      endAt: '2026-02-01T00:00:00.000Z',
      experiment: null,
    });
    expect(c).not.toHaveProperty('rulesCount');
    expect(c.rules[0]).toMatchObject({ name: 'Spend 50', enabled: true, conditionTree: { type: 'cart.subtotal_gte', value: 5000 } });
    expect(typeof c.rules[0].giftConfig).toBe('object');
    expect(c.rules[0].id).toMatch(/^rul_/);
    expect(c.rules[0].createdAt).toMatch(ISO_MS);
  });

  it('answers 404 Campaign not found for an unknown id', async () => {
    const shop = await t.createShop('scale');
    const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns/cmp_nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found'));
  });
});

describe('PUT /campaigns/:id', () => {
  it('updates rules with ids, creates rules without, deletes omitted ones', async () => {
    const shop = await t.createShop('scale');
    const [id] = await seed(shop, [campaign('Before', { rules: [rule('keep'), rule('drop')] })]);
    const before = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json().campaign;
    const [keep] = before.rules;
    const body = {
      ...before,
      name: 'After',
      rules: [{ ...keep, name: 'kept and renamed', conditionTree: { type: 'cart.item_count_gte', value: 2 } }, rule('new')],
    };
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${id}`, payload: body });
    expect(res.statusCode).toBe(200);
    const after = res.json().campaign;
    expect(after.name).toBe('After');
    expect(after.rules.map((r: { name: string }) => r.name)).toEqual(['kept and renamed', 'new']);
    expect(after.rules[0].id).toBe(keep.id);
    expect(after.rules[0].createdAt).toBe(keep.createdAt);
    expect(after.rules[0].conditionTree).toEqual({ type: 'cart.item_count_gte', value: 2 });
    expect(after.rules[1].id).not.toBe(before.rules[1].id);
    expect(after.createdAt).toBe(before.createdAt);
    expect(new Date(after.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(before.updatedAt).getTime());
    // The GET response itself is a valid PUT body: a round trip changes nothing but updatedAt.
    const again = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${id}`, payload: after });
    expect(again.statusCode).toBe(200);
    expect(again.json().campaign.rules).toEqual(after.rules.map((r: Record<string, unknown>) => ({ ...r, updatedAt: expect.any(String) })));
  });

  it.each([
    ['a missing field', (c: Record<string, unknown>) => ({ ...c, isDraft: undefined }), ['isDraft']],
    ['a rule without options', (c: Record<string, unknown>) => ({ ...c, rules: [{ ...rule(), options: undefined }] }), ['rules', 0, 'options']],
    ['a rule id of another campaign', (c: Record<string, unknown>) => ({ ...c, rules: [{ ...rule(), id: 'rul_notmine' }] }), ['rules', 0, 'id']],
    ['endAt equal to startAt', (c: Record<string, unknown>) => ({ ...c, startAt: '2026-01-01T00:00:00Z', endAt: '2026-01-01T00:00:00Z' }), ['endAt']],
  ])('rejects %s with 400 and its path', async (_label, mutate, path) => {
    const shop = await t.createShop('scale');
    const [id] = await seed(shop, [campaign()]);
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json().campaign;
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${id}`, payload: mutate(current) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path });
  });

  it('rejects a rule id sent twice', async () => {
    const shop = await t.createShop('scale');
    const [id] = await seed(shop, [campaign()]);
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json().campaign;
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${id}`, payload: { ...current, rules: [current.rules[0], current.rules[0]] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().path).toEqual(['rules', 1, 'id']);
  });

  it('counts caps without the campaign itself and answers 403 past the rule cap', async () => {
    const shop = await t.createShop('free');
    const url = `/admin/v1/shops/${shop.id}/campaigns`;
    const imported = await t.admin({ method: 'POST', url: `${url}/import`, payload: { campaigns: [campaign('a', { rules: Array.from({ length: 8 }, (_, i) => rule(`r${i}`)) }), campaign('b', { rules: [rule('x')] })] } });
    const [, b] = imported.json().campaignIds as string[];
    const current = (await t.admin({ method: 'GET', url: `${url}/${b}` })).json().campaign;
    const ok = await t.admin({ method: 'PUT', url: `${url}/${b}`, payload: { ...current, rules: [rule('1'), rule('2')] } });
    expect(ok.statusCode).toBe(200);
    const over = await t.admin({ method: 'PUT', url: `${url}/${b}`, payload: { ...current, rules: [rule('1'), rule('2'), rule('3')] } });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'Plan limit exceeded', limit: 'rules' });
  });

  it('strips plan-gated leaves on the admin mount of a Growth shop', async () => {
    const shop = await t.createShop('growth');
    const url = `/admin/v1/shops/${shop.id}/campaigns`;
    const [id] = (await t.admin({ method: 'POST', url: `${url}/import`, payload: { campaigns: [campaign()] } })).json().campaignIds;
    const current = (await t.admin({ method: 'GET', url: `${url}/${id}` })).json().campaign;
    const tree = { type: 'OR', children: [{ type: 'market.handle_in', value: ['eu'] }, { type: 'line.has_variant_id', value: 'gid://shopify/ProductVariant/3' }] };
    const res = await t.admin({ method: 'PUT', url: `${url}/${id}`, payload: { ...current, rules: [{ ...current.rules[0], conditionTree: tree }] } });
    expect(res.json().campaign.rules[0].conditionTree).toEqual({ type: 'OR', children: [tree.children[1]] });
  });

  it('answers 404 for an unknown id', async () => {
    const shop = await t.createShop('scale');
    const res = await t.api(shop, { method: 'PUT', url: '/api/v1/campaigns/cmp_nope', payload: campaign() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found'));
  });
});

describe('DELETE /campaigns/:id', () => {
  it('deletes the campaign and its rules', async () => {
    const shop = await t.createShop('scale');
    const [id, keep] = await seed(shop, [campaign('gone'), campaign('stays')]);
    const res = await t.api(shop, { method: 'DELETE', url: `/api/v1/campaigns/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` })).statusCode).toBe(404);
    const list = (await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).json();
    expect(list.campaigns.map((c: { id: string }) => c.id)).toEqual([keep]);
    const again = await t.api(shop, { method: 'DELETE', url: `/api/v1/campaigns/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(errorBody('Campaign not found', 'not_found'));
  });
});
