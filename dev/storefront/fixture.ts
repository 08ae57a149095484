/**
 * The stand-in shop's catalog and customers: what a real shop's Online Store and Admin would
 * hold. Ids are the platform's numeric ids; `gid()` writes the global ids the service stores.
 * The same fixture fills the stand-in's product page and the service's catalog (`toCatalog`),
 * so the two can never disagree about a variant.
 */

export type FixtureVariant = {
  id: number;
  title: string;
  /** Unit price in minor units of the shop's currency. */
  price: number;
  inventoryQuantity: number;
  inventoryPolicy: 'DENY' | 'CONTINUE';
};

export type FixtureSellingPlan = { id: number; name: string; /** percentage off the variant price */ discountPercent: number };

export type FixtureProduct = {
  id: number;
  handle: string;
  title: string;
  status: 'active' | 'draft' | 'archived';
  /** Gift products exist in the catalog but are not listed on the product page, as shops usually hide them. */
  hidden: boolean;
  variants: FixtureVariant[];
  sellingPlans?: FixtureSellingPlan[];
};

export type FixtureCollection = { id: number; handle: string; productIds: number[] };

export type FixtureCustomer = { id: number; firstName: string; tags: string[] };

export type StorefrontFixture = {
  shopDomain: string;
  currency: string;
  market: { handle: string; country: string };
  products: FixtureProduct[];
  collections: FixtureCollection[];
  customers: FixtureCustomer[];
};

/** `gid("ProductVariant", 20011)` → `gid://shopify/ProductVariant/20011`. */
export function gid(type: 'Product' | 'ProductVariant' | 'Collection' | 'SellingPlan', id: number): string {
  return `gid://shopify/${type}/${id}`;
}

const variant = (id: number, title: string, price: number, inventoryQuantity = 100, inventoryPolicy: 'DENY' | 'CONTINUE' = 'DENY'): FixtureVariant => ({
  id,
  title,
  price,
  inventoryQuantity,
  inventoryPolicy,
});

/** The demo shop: three products to buy, three gifts (one of them sold out), one collection, two customers. */
export const DEMO_FIXTURE: StorefrontFixture = {
  shopDomain: 'demo-gifts.myshopify.com',
  currency: 'USD',
  market: { handle: 'us', country: 'US' },
  products: [
    {
      id: 1001,
      handle: 'organic-cotton-tee',
      title: 'Organic Cotton Tee',
      status: 'active',
      hidden: false,
      variants: [variant(10011, 'Small', 3000), variant(10012, 'Medium', 3000), variant(10013, 'Large', 3200)],
    },
    {
      id: 1002,
      handle: 'canvas-tote',
      title: 'Canvas Tote',
      status: 'active',
      hidden: false,
      variants: [variant(10021, 'Default Title', 1800)],
      sellingPlans: [{ id: 7001, name: 'Delivered every month', discountPercent: 10 }],
    },
    {
      id: 1003,
      handle: 'wool-beanie',
      title: 'Wool Beanie',
      status: 'active',
      hidden: false,
      variants: [variant(10031, 'Default Title', 2500, 3)],
    },
    { id: 2001, handle: 'enamel-mug', title: 'Enamel Mug', status: 'active', hidden: true, variants: [variant(20011, 'Default Title', 1200)] },
    { id: 2002, handle: 'sticker-pack', title: 'Sticker Pack', status: 'active', hidden: true, variants: [variant(20021, 'Default Title', 500)] },
    { id: 2003, handle: 'tea-sampler', title: 'Tea Sampler', status: 'active', hidden: true, variants: [variant(20031, 'Default Title', 900, 0)] },
  ],
  collections: [{ id: 3001, handle: 'apparel', productIds: [1001, 1003] }],
  customers: [
    { id: 501, firstName: 'Ada', tags: ['vip'] },
    { id: 502, firstName: 'Bo', tags: [] },
  ],
};

/** The fixture's variants by numeric id, each with its product. */
export function indexVariants(fixture: StorefrontFixture): Map<number, { product: FixtureProduct; variant: FixtureVariant }> {
  const index = new Map<number, { product: FixtureProduct; variant: FixtureVariant }>();
  for (const product of fixture.products) for (const v of product.variants) index.set(v.id, { product, variant: v });
  return index;
}

/**
 * The fixture as the service's admin catalog body (CONTRACT "Product and collection"), so the
 * service's health check and `collections` map see the very products the page sells.
 *
 * @example
 *   await fetch(`${base}/admin/v1/shops/${shopId}/catalog`, { method: 'POST', body: JSON.stringify(toCatalog(DEMO_FIXTURE)), … });
 */
export function toCatalog(fixture: StorefrontFixture) {
  return {
    products: fixture.products.map((product) => ({
      id: gid('Product', product.id),
      title: product.title,
      status: product.status,
      variants: product.variants.map((v) => ({
        id: gid('ProductVariant', v.id),
        title: v.title,
        inventoryQuantity: v.inventoryQuantity,
        inventoryPolicy: v.inventoryPolicy,
        price: v.price,
      })),
    })),
    collections: fixture.collections.map((collection) => ({
      id: gid('Collection', collection.id),
      handle: collection.handle,
      productIds: collection.productIds.map((id) => gid('Product', id)),
    })),
  };
}
