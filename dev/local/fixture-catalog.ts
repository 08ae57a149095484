/**
 * The storefront fixture's catalog on the stand-in platform, so that the install's catalog
 * import gives the service the very products, variants and collections the stand-in storefront
 * sells (`npm run dev:local`).
 */
import type { StandinCatalog } from '../platform/catalog.ts';
import type { StorefrontFixture } from '../storefront/fixture.ts';

/** @example loadFixtureCatalog(platform.catalog.catalogOf(DEMO_FIXTURE.shopDomain), DEMO_FIXTURE); */
export function loadFixtureCatalog(catalog: StandinCatalog, fixture: StorefrontFixture): void {
  for (const collection of fixture.collections) catalog.collections.push({ id: collection.id, handle: collection.handle, title: collection.handle });
  for (const product of fixture.products) {
    catalog.products.push({
      id: product.id,
      title: product.title,
      status: product.status === 'active' ? 'ACTIVE' : product.status === 'draft' ? 'DRAFT' : 'ARCHIVED',
      variants: product.variants.map((v) => ({ id: v.id, title: v.title, price: (v.price / 100).toFixed(2), inventoryQuantity: v.inventoryQuantity, inventoryPolicy: v.inventoryPolicy, tracked: true })),
      collections: fixture.collections.filter((c) => c.productIds.includes(product.id)).map((c) => c.id),
    });
  }
}
