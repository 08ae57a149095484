/**
 * The enable health check of CONTRACT "Product and collection": warning shapes and levels
 * for gift inventory, gift product status and trigger product status; force=1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rule } from '../campaigns/fixtures.ts';
import type { TestShop } from '../support/test-app.ts';
import { createHarness, product, productGid, variantGid } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const giftRule = (variants: number[], conditionTree: unknown = { type: 'cart.subtotal_gte', value: 5000 }, enabled = true) => ({
  ...rule('Gift rule', conditionTree),
  enabled,
  giftConfig: { type: 'fixed', gifts: variants.map((n) => ({ variantId: variantGid(n), quantity: 1 })), fallbackOnOOS: false },
});

async function setup(products: unknown[], rules: unknown[], settings?: Record<string, unknown>) {
  const shop = await h.newShop();
  const catalog = await h.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: { products } });
  expect(catalog.statusCode).toBe(200);
  if (settings) await h.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings } });
  const id = await h.createCampaign(shop, { rules });
  return { shop, id };
}

const enable = (shop: TestShop, id: string, query = '') => h.t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${id}/enable${query}` });

type Body = { error: string; message: string; warnings: Array<Record<string, unknown>> };

describe('gift inventory', () => {
  it('warns out_of_stock at 0 or less with DENY, low_stock up to the default threshold of 5', async () => {
    const { shop, id } = await setup(
      [
        product(10, { title: 'Tote' }, { title: 'Blue', inventoryQuantity: 0 }),
        product(11, {}, { inventoryQuantity: -3 }),
        product(12, { title: 'Mug' }, { inventoryQuantity: 5 }),
        product(13, {}, { inventoryQuantity: 6 }),
        product(14, {}, { inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' }),
        product(15, {}, { inventoryQuantity: 1, inventoryPolicy: 'CONTINUE' }),
      ],
      [giftRule([10, 11, 12, 13, 14, 15])],
    );
    const res = await enable(shop, id);
    expect(res.statusCode).toBe(409);
    const body = res.json() as Body;
    expect(body.error).toBe('health_warnings');
    const ruleId = ((await h.t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${id}` })).json() as { campaign: { rules: Array<{ id: string }> } })
      .campaign.rules[0]?.id;
    expect(body.warnings).toEqual([
      {
        kind: 'gift_inventory',
        ruleId,
        variantId: '10',
        variantGid: variantGid(10),
        displayName: 'Tote - Blue',
        productTitle: 'Tote',
        inventoryQuantity: 0,
        inventoryPolicy: 'DENY',
        level: 'out_of_stock',
      },
      expect.objectContaining({ variantId: '11', inventoryQuantity: -3, level: 'out_of_stock' }),
      expect.objectContaining({ variantId: '12', displayName: 'Mug', inventoryQuantity: 5, level: 'low_stock' }),
      expect.objectContaining({ variantId: '15', inventoryQuantity: 1, inventoryPolicy: 'CONTINUE', level: 'low_stock' }),
    ]);
    expect(body.message).toMatch(/4 health warnings: gift Tote - Blue is out of stock;/);
    expect(body.message).toMatch(/force=1/);
  });

  it('uses the shop\'s lowStockThreshold', async () => {
    const { shop, id } = await setup([product(20, {}, { inventoryQuantity: 8 })], [giftRule([20])], { lowStockThreshold: 10 });
    const res = await enable(shop, id);
    expect(res.statusCode).toBe(409);
    expect((res.json() as Body).warnings).toEqual([expect.objectContaining({ variantId: '20', level: 'low_stock', inventoryQuantity: 8 })]);
    await h.t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings: { lowStockThreshold: 0 } } });
    expect((await enable(shop, id)).statusCode).toBe(200);
  });
});

describe('gift product status', () => {
  it('warns draft, archived, deleted, and deleted for a variant the catalog does not know', async () => {
    const { shop, id } = await setup(
      [product(30, { status: 'draft', title: 'Draft thing' }), product(31, { status: 'archived' }), product(32)],
      [giftRule([30, 31, 32, 33])],
    );
    expect((await h.t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/catalog/products/${encodeURIComponent(productGid(32))}` })).statusCode).toBe(200);
    const res = await enable(shop, id);
    expect(res.statusCode).toBe(409);
    const warnings = (res.json() as Body).warnings;
    expect(warnings).toEqual([
      expect.objectContaining({ kind: 'gift_status', variantId: '30', variantGid: variantGid(30), displayName: 'Draft thing', productTitle: 'Draft thing', status: 'draft' }),
      expect.objectContaining({ kind: 'gift_status', variantId: '31', status: 'archived' }),
      expect.objectContaining({ kind: 'gift_status', variantId: '32', status: 'deleted', inCatalog: true }),
      { kind: 'gift_status', ruleId: expect.any(String), variantId: '33', variantGid: variantGid(33), displayName: null, productTitle: null, status: 'deleted', inCatalog: false },
    ]);
    // SPEC keeps `status: "deleted"` for an unknown gift; the message tells the merchant what is really wrong.
    const message = (res.json() as Body).message;
    expect(message).toContain(`gift ${variantGid(33)} is not in the catalog`);
    expect(message).not.toContain(`${variantGid(33)} is deleted`);
  });

  it('reports both status and inventory of a draft product that is out of stock', async () => {
    const { shop, id } = await setup([product(34, { status: 'draft' }, { inventoryQuantity: 0 })], [giftRule([34])]);
    const warnings = ((await enable(shop, id)).json() as Body).warnings;
    expect(warnings.map((w) => [w.kind, w.status ?? w.level])).toEqual([
      ['gift_status', 'draft'],
      ['gift_inventory', 'out_of_stock'],
    ]);
  });
});

describe('trigger products', () => {
  it('warns about draft, archived, deleted and unknown products and variants named in conditions, at any depth', async () => {
    const tree = {
      type: 'AND',
      children: [
        { type: 'line.has_product_id', value: productGid(40) },
        { type: 'NOT', child: { type: 'line.has_product_id', value: '41' } },
        { type: 'OR', children: [{ type: 'line.has_variant_id', value: variantGid(42) }, { type: 'line.quantity_min', value: 2, productId: productGid(43) }] },
        { type: 'line.has_product_id', value: productGid(44) },
        { type: 'line.has_product_id', value: productGid(1) },
      ],
    };
    const { shop, id } = await setup(
      [product(40, { status: 'draft', title: 'Shirt' }), product(41, { status: 'archived' }), product(42), product(44)],
      [giftRule([1], tree)],
    );
    await h.t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/catalog/products/42` });
    const res = await enable(shop, id);
    expect(res.statusCode).toBe(409);
    const warnings = (res.json() as Body).warnings;
    expect(warnings).toEqual([
      {
        kind: 'trigger_status',
        ruleId: expect.any(String),
        target: 'product',
        productId: '40',
        productGid: productGid(40),
        productTitle: 'Shirt',
        variantId: null,
        variantGid: null,
        status: 'draft',
        inCatalog: true,
      },
      expect.objectContaining({ target: 'product', productId: '41', productGid: productGid(41), status: 'archived' }),
      expect.objectContaining({ target: 'product', productId: '43', productGid: productGid(43), productTitle: null, status: 'deleted', inCatalog: false }),
      expect.objectContaining({ target: 'variant', productId: '42', productGid: productGid(42), variantId: '42', variantGid: variantGid(42), status: 'deleted' }),
    ]);
    expect((res.json() as Body).message).toMatch(/trigger product Shirt is draft/);
    expect((res.json() as Body).message).toContain(`trigger product ${productGid(43)} is not in the catalog`);
  });

  it('warns once per rule about a product named twice (as a gid and as its numeric id) or a gift listed twice, and again for another rule', async () => {
    const tree = { type: 'OR', children: [{ type: 'line.has_product_id', value: productGid(61) }, { type: 'line.has_product_id', value: '61' }] };
    const { shop, id } = await setup([product(60, {}, { inventoryQuantity: 0 }), product(61, { status: 'archived', title: 'Scarf' })], [giftRule([60, 60], tree), { ...giftRule([60], tree), name: 'Second' }]);
    const res = await enable(shop, id);
    expect(res.statusCode).toBe(409);
    const warnings = (res.json() as Body).warnings;
    expect(warnings.map((w) => [w.kind, w.productId ?? w.variantId])).toEqual([
      ['gift_inventory', '60'],
      ['trigger_status', '61'],
      ['gift_inventory', '60'],
      ['trigger_status', '61'],
    ]);
    expect(new Set(warnings.map((w) => w.ruleId)).size).toBe(2);
  });

  it('ignores disabled rules: they give no gift and trigger nothing', async () => {
    const { shop, id } = await setup([], [giftRule([999], { type: 'line.has_product_id', value: productGid(998) }, false)]);
    expect((await enable(shop, id)).statusCode).toBe(200);
  });
});

describe('force=1', () => {
  it('enables despite warnings, with the usual side effects', async () => {
    const { shop, id } = await setup([product(50, {}, { inventoryQuantity: 0 })], [giftRule([50])]);
    expect((await enable(shop, id, '?force=0')).statusCode).toBe(409);
    const res = await enable(shop, id, '?force=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, campaign: { id, enabled: true, isDraft: false } });
    expect((await h.drain(shop)).map((e) => e.type)).toEqual(['campaign.activated']);
  });

  it('rejects a force value that is not a flag with 400', async () => {
    const { shop, id } = await setup([], [giftRule([1])]);
    const res = await enable(shop, id, '?force=yes');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid query parameters', path: ['force'] });
  });

  it('is not needed when the catalog is healthy', async () => {
    const { shop, id } = await setup([], [giftRule([1], { type: 'line.has_product_id', value: productGid(1) })]);
    expect((await enable(shop, id)).statusCode).toBe(200);
  });
});
