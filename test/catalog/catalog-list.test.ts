/** GET /shops/:shopId/catalog/products: the catalog listing the gift picker reads. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { product, productGid, variantGid } from '../lifecycle/harness.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('free');
  other = await t.createShop('free');
  const upsert = async (shopId: string, products: unknown[]) =>
    expect((await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/catalog`, payload: { products } })).statusCode).toBe(200);
  await upsert(shop.id, [
    product(1, { title: 'Enamel Mug' }),
    {
      ...product(2, { title: 'Tote bag' }),
      imageUrl: 'https://cdn.example/tote.png',
      variants: [
        { id: variantGid(21), title: 'Blue', inventoryQuantity: 0, inventoryPolicy: 'DENY', price: 1999 },
        { id: variantGid(22), title: 'Red', inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' },
      ],
    },
    product(3, { title: 'Mug 100% cotton_cosy' }),
    product(4, { title: 'Retired mug' }),
    ...Array.from({ length: 5 }, (_, i) => product(10 + i, { title: `Sticker ${i}` })),
  ]);
  expect((await t.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/catalog/products/4` })).statusCode).toBe(200);
  await upsert(other.id, [product(1, { title: 'Other shop mug' }), product(99, { title: 'Other shop only' })]);
});
afterAll(() => t.close());

const list = (shopId: string, query = '') => t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/catalog/products${query}` });

describe('GET /shops/:shopId/catalog/products', () => {
  it('lists live products by id with their variants, stock and soldOut', async () => {
    const res = await list(shop.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.nextCursor).toBeNull();
    expect(body.products.map((p: { title: string }) => p.title)).not.toContain('Retired mug');
    expect(body.products).toHaveLength(8);
    expect(body.products.find((p: { id: string }) => p.id === productGid(2))).toEqual({
      id: productGid(2),
      title: 'Tote bag',
      status: 'active',
      deleted: false,
      imageUrl: 'https://cdn.example/tote.png',
      variants: [
        { id: variantGid(21), title: 'Blue', inventoryQuantity: 0, inventoryPolicy: 'DENY', price: 1999, soldOut: true },
        { id: variantGid(22), title: 'Red', inventoryQuantity: 0, inventoryPolicy: 'CONTINUE', price: null, soldOut: false },
      ],
    });
    expect(body.products[0]).toMatchObject({ imageUrl: null });
    expect(body.products[0].variants[0]).toMatchObject({ id: variantGid(1), inventoryQuantity: 100, soldOut: false });
  });

  it('refuses an image that is not an http(s) URL and a negative price, at their paths', async () => {
    const upsert = (products: unknown[]) => t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: { products } });
    const badImage = await upsert([{ ...product(5), imageUrl: 'javascript:alert(1)' }]);
    expect(badImage.statusCode).toBe(400);
    expect(badImage.json().path).toEqual(['products', 0, 'imageUrl']);
    const badPrice = await upsert([{ ...product(5), variants: [{ id: variantGid(51), title: 'One', inventoryQuantity: 1, inventoryPolicy: 'DENY', price: -1 }] }]);
    expect(badPrice.statusCode).toBe(400);
    expect(badPrice.json().path).toEqual(['products', 0, 'variants', 0, 'price']);
    expect((await list(shop.id, '?q=Sticker')).json().products).toHaveLength(5);
  });

  it('includes deleted products when asked', async () => {
    const body = (await list(shop.id, '?includeDeleted=true&q=retired')).json();
    expect(body.products).toEqual([expect.objectContaining({ id: productGid(4), deleted: true })]);
    expect((await list(shop.id, '?includeDeleted=false&q=retired')).json().products).toEqual([]);
  });

  it('searches titles case-insensitively, with % and _ taken literally', async () => {
    const titles = async (q: string) =>
      (await list(shop.id, `?q=${encodeURIComponent(q)}`)).json().products.map((p: { title: string }) => p.title);
    expect(await titles('MUG')).toEqual(['Enamel Mug', 'Mug 100% cotton_cosy']);
    expect(await titles('100%')).toEqual(['Mug 100% cotton_cosy']);
    expect(await titles('%')).toEqual(['Mug 100% cotton_cosy']);
    expect(await titles('n_c')).toEqual(['Mug 100% cotton_cosy']);
    expect(await titles('Sticker_')).toEqual([]);
    expect(await titles('nothing like it')).toEqual([]);
  });

  it('pages by cursor: every product once, in id order, and the last page has no cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(shop.id, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.products.length).toBeLessThanOrEqual(3);
      seen.push(...body.products.map((p: { id: string }) => p.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(3);
    const all = (await list(shop.id)).json().products.map((p: { id: string }) => p.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(8);
    const searched = (await list(shop.id, '?q=sticker&limit=2')).json();
    expect(searched.products).toHaveLength(2);
    expect(typeof searched.nextCursor).toBe('string');
  });

  it("never shows another shop's products, and answers 404 for an unknown shop and 401 without the token", async () => {
    const titles = (await list(other.id)).json().products.map((p: { title: string }) => p.title);
    expect(titles).toEqual(['Other shop mug', 'Other shop only']);
    expect((await list(shop.id, '?q=other')).json().products).toEqual([]);
    expect((await list('shp_unknown')).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/catalog/products` });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['limit 0', '?limit=0', ['limit']],
    ['limit 101', '?limit=101', ['limit']],
    ['limit not a number', '?limit=many', ['limit']],
    ['a cursor that is not base64url', '?cursor=a.b', ['cursor']],
    ['a cursor that is not a product id', `?cursor=${Buffer.from('hello').toString('base64url')}`, ['cursor']],
    ['a cursor hiding a NUL', `?cursor=${Buffer.from('gid://shopify/Product/1\u0000').toString('base64url')}`, ['cursor']],
    ['q too long', `?q=${'a'.repeat(256)}`, ['q']],
    ['q with a NUL', '?q=%00', ['q']],
    ['includeDeleted not a boolean', '?includeDeleted=yes', ['includeDeleted']],
  ])('answers 400 for %s', async (_what, query, path) => {
    const res = await list(shop.id, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.any(String), issue: expect.any(String), path });
  });
});
