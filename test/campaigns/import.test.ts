import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/http/json.ts';
import { POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { campaign, deepTree, rule } from './fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Serialised by our own depth-safe stringifier: JSON.stringify overflows on the deep trees below.
const importAs = (shop: TestShop | string, body: unknown) =>
  t.api(shop, {
    method: 'POST',
    url: '/api/v1/campaigns/import',
    headers: { 'content-type': 'application/json' },
    payload: stringifyJson(body),
  });

describe('POST /campaigns/import', () => {
  it('creates every entry and returns the ids in order', async () => {
    const shop = await t.createShop('scale');
    const res = await importAs(shop, { campaigns: [campaign('A'), campaign('B', { rules: [rule('x'), rule('y')] })] });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { imported: number; campaignIds: string[] };
    expect(body.imported).toBe(2);
    expect(body.campaignIds).toHaveLength(2);
    for (const id of body.campaignIds) expect(id).toMatch(/^cmp_/);
    const second = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${body.campaignIds[1]}` });
    const c = second.json().campaign;
    expect(c.name).toBe('B');
    expect(c.rules.map((r: { name: string }) => r.name)).toEqual(['x', 'y']);
    expect(c.rules[0].conditionTree).toEqual({ type: 'cart.subtotal_gte', value: 5000 });
    expect(c.experiment).toBeNull();
  });

  it('fills defaults for fields an entry leaves out', async () => {
    const shop = await t.createShop('scale');
    const res = await importAs(shop, {
      campaigns: [{ name: 'Bare', rules: [{ name: 'r', conditionTree: { type: 'cart.subtotal_gte', value: 1 }, giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/9', quantity: 1 }] } }] }],
    });
    expect(res.statusCode).toBe(200);
    const get = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${res.json().campaignIds[0]}` });
    const c = get.json().campaign;
    expect(c).toMatchObject({ enabled: false, isDraft: false, startAt: null, endAt: null });
    expect(c.rules[0]).toMatchObject({
      enabled: true,
      giftConfig: { fallbackOnOOS: false },
      options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100 },
    });
  });

  it.each([
    ['no body field', {}],
    ['empty campaigns', { campaigns: [] }],
    ['campaigns not an array', { campaigns: 'x' }],
    ['51 entries', { campaigns: Array.from({ length: 51 }, (_, i) => campaign(`c${i}`)) }],
  ])('rejects %s with 400', async (_label, body) => {
    const shop = await t.createShop('scale');
    const res = await importAs(shop, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path: ['campaigns'] });
    expect(typeof res.json().issue).toBe('string');
  });

  it('accepts exactly 50 entries', async () => {
    const shop = await t.createShop('scale');
    const res = await importAs(shop, { campaigns: Array.from({ length: 50 }, (_, i) => campaign(`c${i}`, { rules: [] })) });
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toBe(50);
  });

  it.each([
    ['a missing name', [{ ...campaign(), name: undefined }], ['campaigns', 0, 'name']],
    ['a bad timestamp', [campaign('a', { startAt: '2026-13-01' })], ['campaigns', 0, 'startAt']],
    ['endAt before startAt', [campaign('a', { startAt: '2026-02-01T00:00:00.000Z', endAt: '2026-01-01T00:00:00.000Z' })], ['campaigns', 0, 'endAt']],
    ['an unknown node type', [campaign('a'), campaign('b', { rules: [rule('r', { type: 'AND', children: [{ type: 'cart.bogus' }] })] })], ['campaigns', 1, 'rules', 0, 'conditionTree', 'children', 0, 'type']],
    ['a leaf missing its value', [campaign('a', { rules: [rule('r', { type: 'OR', children: [{ type: 'cart.subtotal_gte', value: 1 }, { type: 'cart.subtotal_lte' }] })] })], ['campaigns', 0, 'rules', 0, 'conditionTree', 'children', 1, 'value']],
    ['a string threshold', [campaign('a', { rules: [rule('r', { type: 'cart.subtotal_gte', value: '50' })] })], ['campaigns', 0, 'rules', 0, 'conditionTree', 'value']],
    ['a gift without variant', [campaign('a', { rules: [{ ...rule(), giftConfig: { type: 'fixed', gifts: [{ quantity: 1 }] } }] })], ['campaigns', 0, 'rules', 0, 'giftConfig', 'gifts', 0, 'variantId']],
    ['a percentage over 100', [campaign('a', { rules: [{ ...rule(), options: { discountType: 'percentage', discountValue: 150 } }] })], ['campaigns', 0, 'rules', 0, 'options', 'discountValue']],
    ['a NOT without child', [campaign('a', { rules: [rule('r', { type: 'NOT' })] })], ['campaigns', 0, 'rules', 0, 'conditionTree', 'child']],
  ])('rejects %s with 400, issue and the full path', async (_label, campaigns, path) => {
    const shop = await t.createShop('scale');
    const res = await importAs(shop, { campaigns });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request body', path });
    expect(res.json().issue).toEqual(expect.any(String));
    const list = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
    expect(list.json().meta.total).toBe(0);
  });

  it('validates and stores a 20,000-level tree without a stack overflow, and reads it back', async () => {
    const shop = await t.createShop('scale');
    const tree = deepTree(20_000);
    const res = await importAs(shop, { campaigns: [campaign('deep', { rules: [rule('deep', tree)] })] });
    expect(res.statusCode).toBe(200);
    const get = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${res.json().campaignIds[0]}` });
    expect(get.statusCode).toBe(200);
    let node = JSON.parse(get.body).campaign.rules[0].conditionTree;
    let depth = 0;
    while (node.type === 'NOT') {
      node = node.child;
      depth += 1;
    }
    expect(depth).toBe(20_000);
    expect(node).toEqual({ type: 'discount.code_present' });
  });

  it('reports a bad leaf deep inside a deep tree with its full path', async () => {
    const shop = await t.createShop('scale');
    const res = await importAs(shop, { campaigns: [campaign('deep', { rules: [rule('deep', deepTree(5_000, { type: 'nope' }))] })] });
    expect(res.statusCode).toBe(400);
    const path = res.json().path as unknown[];
    expect(path.slice(0, 5)).toEqual(['campaigns', 0, 'rules', 0, 'conditionTree']);
    expect(path).toHaveLength(5 + 5_000 + 1);
    expect(path.at(-1)).toBe('type');
  });

  describe('plan caps (403 for the whole batch)', () => {
    it('rejects a batch that would pass the campaign cap', async () => {
      const shop = await t.createShop('free');
      await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign('1'), campaign('2')] } });
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('3'), campaign('4')] },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'Plan limit exceeded', limit: 'campaigns', max: 3 });
      const list = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns` });
      expect(list.json().meta.total).toBe(2);
    });

    it('rejects a batch that would pass the rule cap', async () => {
      const shop = await t.createShop('free');
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('1', { rules: Array.from({ length: 11 }, (_, i) => rule(`r${i}`)) })] },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ limit: 'rules', max: 10 });
    });

    it('rejects a batch that would pass the active-campaign cap', async () => {
      const shop = await t.createShop('free');
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('1', { enabled: true, isDraft: false }), campaign('2', { enabled: true, isDraft: false })] },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ limit: 'activeCampaigns', max: 1 });
    });

    it('honours per-shop overrides of the caps', async () => {
      const shop = await t.createShop('free');
      await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { limits: { campaigns: 5 } } });
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('1'), campaign('2'), campaign('3'), campaign('4')] },
      });
      expect(res.statusCode).toBe(200);
    });

    it.skipIf(testDbKind() !== 'postgres')(`${POSTGRES_ONLY}never lets concurrent imports pass a cap together`, async () => {
      const shop = await t.createShop('free');
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, payload: { campaigns: [campaign(`c${i}`, { rules: [] })] } }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
      expect(results.filter((r) => r.statusCode === 403)).toHaveLength(2);
      const list = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns` });
      expect(list.json().meta.total).toBe(3);
    });
  });

  describe('plan-gated condition types', () => {
    const gatedTree = {
      type: 'AND',
      children: [
        { type: 'cart.subtotal_gte', value: 5000 },
        { type: 'customer.tag_in', value: ['vip'] },
        { type: 'NOT', child: { type: 'line.has_product_id', value: 'gid://shopify/Product/1' } },
      ],
    };

    it('strips them silently for a Free shop (admin mount), leaving a well-formed tree', async () => {
      const shop = await t.createShop('free');
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('gated', { rules: [rule('r', gatedTree)] })] },
      });
      expect(res.statusCode).toBe(200);
      const get = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${res.json().campaignIds[0]}` });
      expect(get.json().campaign.rules[0].conditionTree).toEqual({
        type: 'AND',
        children: [{ type: 'cart.subtotal_gte', value: 5000 }],
      });
    });

    it('keeps a tree whose every leaf is gated as the never-matching empty AND', async () => {
      const shop = await t.createShop('free');
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('gated', { rules: [rule('r', { type: 'customer.tag_in', value: ['vip'] })] })] },
      });
      const get = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/campaigns/${res.json().campaignIds[0]}` });
      expect(get.json().campaign.rules[0].conditionTree).toEqual({ type: 'AND', children: [] });
    });

    it('keeps them for a Scale shop', async () => {
      const shop = await t.createShop('scale');
      const res = await importAs(shop, { campaigns: [campaign('gated', { rules: [rule('r', gatedTree)] })] });
      const get = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${res.json().campaignIds[0]}` });
      expect(get.json().campaign.rules[0].conditionTree).toEqual(gatedTree);
    });
  });
});
