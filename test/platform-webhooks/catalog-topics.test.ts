/**
 * POST /webhooks/platform's catalog topics (CONTRACT part two "Platform webhooks"):
 * products/create and products/update keep variants, stock policy, status, the featured image
 * and prices (a 2048-variant product past the 1 MiB limit included), a duplicate variant is a
 * 400, inventory_levels/update adds up locations per shop, products/delete marks the product
 * deleted. Another shop's catalog is never touched; PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVariants } from '../../src/catalog/store.ts';
import { deliver, openPlatformApp, productPayload } from './fixtures.ts';

let w: Awaited<ReturnType<typeof openPlatformApp>>;
beforeAll(async () => (w = await openPlatformApp()));
afterAll(() => w.t.close());

describe('POST /webhooks/platform', () => {
  describe('catalog topics', () => {
    const variantOf = async (shopId: string, id: number) => (await findVariants(w.t.ctx.db, shopId, [String(id)]))[0];

    it('products/create and products/update keep the catalog: variants, policy, untracked stock, unlisted status', async () => {
      const created = await deliver(
        w.t,
        productPayload({ id: 3001, variants: [{ id: 30011, quantity: 4 }, { id: 30012, quantity: 0, tracked: false }] }),
        { topic: 'products/create', domain: w.domain },
      );
      expect(created.json()).toEqual({ ok: true, duplicate: false });
      expect(await variantOf(w.shop.id, 30011)).toMatchObject({ id: 'gid://shopify/ProductVariant/30011', inventoryQuantity: 4, inventoryPolicy: 'DENY', productStatus: 'active' });
      expect(await variantOf(w.shop.id, 30012)).toMatchObject({ inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' });
      await deliver(w.t, productPayload({ id: 3001, status: 'unlisted', variants: [{ id: 30011, quantity: 9, policy: 'continue' }] }), { topic: 'products/update', domain: w.domain });
      expect(await variantOf(w.shop.id, 30011)).toMatchObject({ inventoryQuantity: 9, inventoryPolicy: 'CONTINUE', productStatus: 'active' });
      expect(await variantOf(w.shop.id, 30012)).toBeUndefined();
      expect(await variantOf(w.other.id, 30011)).toBeUndefined();
    });

    it('takes a product with the platform\'s 2048 variants, a body past the 1 MiB other routes take', async () => {
      const variants = Array.from({ length: 2048 }, (_, index) => ({ id: 500_000 + index, quantity: index, title: `Size ${index} ${'x'.repeat(240)}` }));
      const body = JSON.stringify({ ...productPayload({ id: 3005, variants }), body_html: `<p>${'A long description. '.repeat(10_000)}</p>` });
      expect(body.length).toBeGreaterThan(1_048_576);
      const res = await deliver(w.t, body, { topic: 'products/update', domain: w.domain });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(await variantOf(w.shop.id, 502_047)).toMatchObject({ inventoryQuantity: 2047 });
    });

    it('products/create and products/update keep the featured image and each price (shop currency, minor units)', async () => {
      const listed = async () =>
        ((await w.t.admin({ method: 'GET', url: `/admin/v1/shops/${w.shop.id}/catalog/products?q=Product%203006` })).json() as { products: Array<{ imageUrl: string | null; variants: Array<{ price: number | null }> }> }).products[0];
      const send = (images: Record<string, unknown>, price?: string | null) =>
        deliver(w.t, productPayload({ id: 3006, images, variants: [{ id: 30061, price }] }), { topic: 'products/update', domain: w.domain });
      expect((await send({ image: { src: 'https://cdn.example/a.png' }, images: [{ src: 'https://cdn.example/b.png' }] }, '12.50')).statusCode).toBe(200);
      expect(await listed()).toMatchObject({ imageUrl: 'https://cdn.example/a.png', variants: [{ price: 1250 }] });
      await send({ image: null, images: [{ src: 'https://cdn.example/b.png' }] });
      expect(await listed()).toMatchObject({ imageUrl: 'https://cdn.example/b.png', variants: [{ price: 1000 }] });
      await send({ featured_image: 'https://cdn.example/c.png' }, null);
      expect(await listed()).toMatchObject({ imageUrl: 'https://cdn.example/c.png', variants: [{ price: null }] });
      // Not an http(s) URL: no image, the product still stored; a price the currency cannot hold: unknown.
      expect((await send({ image: { src: 'javascript:alert(1)' } }, '1.2345')).statusCode).toBe(200);
      expect(await listed()).toMatchObject({ imageUrl: null, variants: [{ price: null }] });
    });

    it('answers 400 for a product that names a variant twice', async () => {
      const res = await deliver(w.t, productPayload({ id: 3002, variants: [{ id: 30021 }, { id: 30021 }] }), { topic: 'products/update', domain: w.domain });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid product payload' });
    });

    it('inventory_levels/update moves the variant of its inventory item; several locations add up', async () => {
      await deliver(w.t, productPayload({ id: 3003, variants: [{ id: 30031, quantity: 10, inventoryItemId: 808 }] }), { topic: 'products/create', domain: w.domain });
      const level = (location: number, available: number | null) =>
        deliver(w.t, { inventory_item_id: 808, location_id: location, available, updated_at: '2026-01-15T10:00:00-05:00' }, { topic: 'inventory_levels/update', domain: w.domain });
      // First report of a location: the sum of the levels known (one location: its level).
      expect((await level(1, 6)).json()).toEqual({ ok: true, duplicate: false });
      expect((await variantOf(w.shop.id, 30031))?.inventoryQuantity).toBe(6);
      await level(2, 4);
      expect((await variantOf(w.shop.id, 30031))?.inventoryQuantity).toBe(10);
      // A known location moves the total by its difference.
      await level(1, 1);
      expect((await variantOf(w.shop.id, 30031))?.inventoryQuantity).toBe(5);
      await level(1, null);
      expect((await variantOf(w.shop.id, 30031))?.inventoryQuantity).toBe(5);
      // The same item id in another shop is another item.
      expect((await deliver(w.t, { inventory_item_id: 808, location_id: 1, available: 0 }, { topic: 'inventory_levels/update', domain: w.otherDomain })).statusCode).toBe(200);
      expect((await variantOf(w.shop.id, 30031))?.inventoryQuantity).toBe(5);
    });

    it('products/delete marks the product deleted; an unknown product changes nothing', async () => {
      await deliver(w.t, productPayload({ id: 3004 }), { topic: 'products/create', domain: w.domain });
      expect((await deliver(w.t, { id: 3004 }, { topic: 'products/delete', domain: w.domain })).json()).toEqual({ ok: true, duplicate: false });
      expect(await variantOf(w.shop.id, 30040)).toMatchObject({ productDeleted: true });
      expect((await deliver(w.t, { id: 999_999 }, { topic: 'products/delete', domain: w.domain })).statusCode).toBe(200);
    });
  });
});
