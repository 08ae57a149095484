/** CONTRACT "Product and collection": the admin catalog upsert and product deletion. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collections, products, shops, variants } from '../../src/db/schema.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { product, productGid, variantGid } from '../lifecycle/harness.ts';

let t: TestApp;
let shop: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('free');
});
afterAll(() => t.close());

const upsert = (shopId: string, payload: unknown) =>
  t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/catalog`, payload: payload as object });
const remove = (shopId: string, productId: string) =>
  t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shopId}/catalog/products/${encodeURIComponent(productId)}` });

const productRow = async (shopId: string, id: string) =>
  (await t.ctx.db.select().from(products).where(and(eq(products.shopId, shopId), eq(products.id, id))))[0];
const variantRows = async (shopId: string, productId: string) =>
  t.ctx.db.select().from(variants).where(and(eq(variants.shopId, shopId), eq(variants.productId, productId)));
const rulesVersion = async (shopId: string) =>
  (await t.ctx.db.select({ v: shops.rulesVersion }).from(shops).where(eq(shops.id, shopId)))[0]?.v;

describe('POST /shops/:shopId/catalog', () => {
  it('inserts products, variants and collections, and bumps the rules version', async () => {
    const before = await rulesVersion(shop.id);
    const res = await upsert(shop.id, {
      products: [product(1, { title: 'Mug' }), product(2, { status: 'draft' })],
      collections: [{ id: 'gid://shopify/Collection/7', handle: 'summer', productIds: [productGid(1), productGid(2)] }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await productRow(shop.id, productGid(1))).toMatchObject({ title: 'Mug', status: 'active', deleted: false });
    expect(await productRow(shop.id, productGid(2))).toMatchObject({ status: 'draft' });
    expect(await variantRows(shop.id, productGid(1))).toEqual([
      expect.objectContaining({ id: variantGid(1), title: 'Default Title', inventoryQuantity: 100, inventoryPolicy: 'DENY' }),
    ]);
    const [collection] = await t.ctx.db.select().from(collections).where(eq(collections.shopId, shop.id));
    expect(collection).toMatchObject({ handle: 'summer', productIds: [productGid(1), productGid(2)] });
    expect(await rulesVersion(shop.id)).toBeGreaterThan(before ?? 0);
  });

  it('upserts: a product\'s fields change and its variants are replaced by the ones sent', async () => {
    await upsert(shop.id, {
      products: [{ ...product(3), variants: [{ id: variantGid(31), title: 'S', inventoryQuantity: 1, inventoryPolicy: 'DENY' }, { id: variantGid(32), title: 'M', inventoryQuantity: 2, inventoryPolicy: 'DENY' }] }],
    });
    const res = await upsert(shop.id, {
      products: [{ ...product(3, { title: 'Renamed', status: 'archived' }), variants: [{ id: variantGid(32), title: 'M', inventoryQuantity: 9, inventoryPolicy: 'CONTINUE' }] }],
    });
    expect(res.statusCode).toBe(200);
    expect(await productRow(shop.id, productGid(3))).toMatchObject({ title: 'Renamed', status: 'archived' });
    expect(await variantRows(shop.id, productGid(3))).toEqual([
      expect.objectContaining({ id: variantGid(32), inventoryQuantity: 9, inventoryPolicy: 'CONTINUE' }),
    ]);
  });

  it('moves a variant sent under another product, and revives a deleted product that is sent again', async () => {
    await upsert(shop.id, { products: [product(4)] });
    expect((await remove(shop.id, productGid(4))).statusCode).toBe(200);
    await upsert(shop.id, { products: [{ ...product(5), variants: [{ id: variantGid(4), title: 'Moved', inventoryQuantity: 3, inventoryPolicy: 'DENY' }] }] });
    expect(await variantRows(shop.id, productGid(4))).toEqual([]);
    expect(await variantRows(shop.id, productGid(5))).toEqual([expect.objectContaining({ id: variantGid(4), title: 'Moved' })]);
    await upsert(shop.id, { products: [product(4, {}, { id: variantGid(41) })] });
    expect(await productRow(shop.id, productGid(4))).toMatchObject({ deleted: false });
  });

  it('updates a collection by id, and accepts a body with collections only', async () => {
    const res = await upsert(shop.id, {
      products: [],
      collections: [{ id: 'gid://shopify/Collection/7', handle: 'summer-sale', productIds: [] }],
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(collections).where(eq(collections.shopId, shop.id));
    expect(rows).toEqual([expect.objectContaining({ id: 'gid://shopify/Collection/7', handle: 'summer-sale', productIds: [] })]);
  });

  it('answers 409 when a new collection takes a handle another collection holds', async () => {
    await upsert(shop.id, { products: [], collections: [{ id: 'gid://shopify/Collection/8', handle: 'winter', productIds: [] }] });
    const res = await upsert(shop.id, {
      products: [product(6)],
      collections: [{ id: 'gid://shopify/Collection/9', handle: 'winter', productIds: [] }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'Collection handle already in use', path: ['collections', 0, 'handle'] });
    // All or nothing: the product of the rejected request was not written.
    expect(await productRow(shop.id, productGid(6))).toBeUndefined();
  });

  it.each([
    ['no products field', {}, ['products']],
    ['a product gid of another type', { products: [{ ...product(1), id: 'gid://shopify/Collection/1' }] }, ['products', 0, 'id']],
    ['a bad status', { products: [product(1, { status: 'live' })] }, ['products', 0, 'status']],
    ['a bad inventory policy', { products: [product(1, {}, { inventoryPolicy: 'deny' })] }, ['products', 0, 'variants', 0, 'inventoryPolicy']],
    ['a fractional inventory', { products: [product(1, {}, { inventoryQuantity: 1.5 })] }, ['products', 0, 'variants', 0, 'inventoryQuantity']],
    ['a repeated product', { products: [product(1), product(1, {}, { id: variantGid(99) })] }, ['products', 1, 'id']],
    ['a repeated variant', { products: [product(1), product(2, {}, { id: variantGid(1) })] }, ['products', 1, 'variants']],
    ['a collection without handle', { products: [], collections: [{ id: 'gid://shopify/Collection/1', productIds: [] }] }, ['collections', 0, 'handle']],
    ['a repeated handle', { products: [], collections: [{ id: 'gid://shopify/Collection/1', handle: 'a', productIds: [] }, { id: 'gid://shopify/Collection/2', handle: 'a', productIds: [] }] }, ['collections', 1, 'handle']],
  ])('answers 400 for %s', async (_what, payload, path) => {
    const res = await upsert(shop.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid catalog body', issue: expect.any(String), path });
  });

  it('answers 404 for an unknown shop and 401 without the admin token', async () => {
    expect((await upsert('shp_unknown', { products: [] })).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: { products: [] } });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /shops/:shopId/catalog/products/:productId', () => {
  it('marks the product deleted by gid or numeric id, keeping its rows, and bumps the rules version', async () => {
    await upsert(shop.id, { products: [product(10), product(11)] });
    const before = await rulesVersion(shop.id);
    const res = await remove(shop.id, productGid(10));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await productRow(shop.id, productGid(10))).toMatchObject({ deleted: true });
    expect(await variantRows(shop.id, productGid(10))).toHaveLength(1);
    expect(await rulesVersion(shop.id)).toBeGreaterThan(before ?? 0);
    expect((await remove(shop.id, '11')).statusCode).toBe(200);
    expect(await productRow(shop.id, productGid(11))).toMatchObject({ deleted: true });
    // Deleting again is fine: the product is known.
    expect((await remove(shop.id, productGid(10))).statusCode).toBe(200);
  });

  it('answers 404 for an unknown product without bumping the version, and 400 for a malformed id', async () => {
    const before = await rulesVersion(shop.id);
    const res = await remove(shop.id, productGid(12345));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Product not found', 'not_found'));
    expect(await rulesVersion(shop.id)).toBe(before);
    expect((await remove(shop.id, 'not-an-id')).statusCode).toBe(400);
  });

  it('answers 404 for another shop\'s product and leaves it alone', async () => {
    const other = await t.createShop('free');
    await upsert(other.id, { products: [product(20)] });
    expect((await remove(shop.id, productGid(20))).statusCode).toBe(404);
    expect(await productRow(other.id, productGid(20))).toMatchObject({ deleted: false });
  });
});
