/**
 * The stand-in platform's catalog family: `products` (cursor pagination, sorted by id), `product`,
 * and `collections`, each product with its variants (inventory quantity, policy, inventory item)
 * and the collections it belongs to, under the platform's field names and enum values
 * (`ProductStatus` ACTIVE/ARCHIVED/DRAFT/UNLISTED, `ProductVariantInventoryPolicy` DENY/CONTINUE),
 * its price (the `Money` scalar: a decimal string) and the product's featured image. The images are
 * served by the stand-in itself (`GET /cdn/product.svg?id=…`, a coloured tile with the product's
 * number) so that the admin shows pictures without reaching the internet.
 */
import { createFaults, withFaults } from './faults.ts';
import type { Faults } from './faults.ts';
import { answerRoot, connection } from './selection.ts';
import type { Answer, Resolver } from './selection.ts';
import type { OperationFamily, StandinRoute } from './standin.ts';

/** `price` is the platform's decimal in the shop's currency ("19.99"); absent, "0.00". */
export type StandinVariant = { id: number; title: string; price?: string; inventoryQuantity: number; inventoryPolicy: 'DENY' | 'CONTINUE'; tracked: boolean };
/** `imageUrl`: the featured image's URL; absent or null, the product has no media. */
export type StandinProduct = {
  id: number;
  title: string;
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT' | 'UNLISTED';
  imageUrl?: string | null;
  variants: StandinVariant[];
  collections: number[];
};
export type StandinCollection = { id: number; handle: string; title: string };
export type StandinCatalog = { products: StandinProduct[]; collections: StandinCollection[] };

export type CatalogFamily = {
  family: OperationFamily;
  faults: Faults;
  /** Serves the product images the seeded catalog points at. */
  route: StandinRoute;
  /** The stand-in's own URL (set once it listens): the seeded images' origin. */
  origin: string;
  /** The catalog of a shop (by domain), created empty on first use. */
  catalogOf(domain: string): StandinCatalog;
  /**
   * Fills a shop's catalog with `count` products (ids from 1001), each with `variantsPer`
   * variants, every tenth product in collection `featured`; returns the catalog.
   */
  seed(domain: string, count: number, variantsPer?: number): StandinCatalog;
};

const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;

function variantAnswer(variant: StandinVariant): Answer {
  return {
    id: gid('ProductVariant', variant.id),
    title: variant.title,
    price: variant.price ?? '0.00',
    inventoryQuantity: variant.inventoryQuantity,
    inventoryPolicy: variant.inventoryPolicy,
    inventoryItem: { id: gid('InventoryItem', variant.id + 500_000_000), tracked: variant.tracked },
  };
}

function productAnswer(product: StandinProduct, catalog: StandinCatalog): Answer {
  const variants: Resolver = (args) => connection(product.variants, args, variantAnswer);
  const collections: Resolver = (args) =>
    connection(
      catalog.collections.filter((c) => product.collections.includes(c.id)),
      args,
      (c) => ({ id: gid('Collection', c.id), handle: c.handle, title: c.title }),
    );
  const featuredMedia = product.imageUrl ? { __typename: 'MediaImage', preview: { image: { url: product.imageUrl } } } : null;
  return { id: gid('Product', product.id), title: product.title, status: product.status, featuredMedia, variants, collections };
}

const HUES = [12, 48, 150, 200, 265, 320];

/** A 200 × 200 tile with the product's number: enough to tell products apart in the picker. */
const imageRoute: StandinRoute = {
  method: 'GET',
  path: '/cdn/product.svg',
  handle(request, _body, response) {
    const id = Number(new URL(request.url ?? '/', 'http://standin').searchParams.get('id')) || 0;
    const hue = HUES[id % HUES.length] ?? 0;
    response.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
    response.end(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="hsl(${hue} 60% 82%)"/>` +
        `<text x="100" y="112" font-family="sans-serif" font-size="36" text-anchor="middle" fill="hsl(${hue} 50% 25%)">${id}</text></svg>`,
    );
  },
};

const numericOf = (id: unknown): number => Number(String(id).split('/').at(-1));

/** @example const catalog = createCatalogFamily(); catalog.seed('a.myshopify.com', 100); */
export function createCatalogFamily(): CatalogFamily {
  const faults = createFaults();
  const catalogs = new Map<string, StandinCatalog>();
  const catalogOf = (domain: string) => {
    let catalog = catalogs.get(domain);
    if (!catalog) catalogs.set(domain, (catalog = { products: [], collections: [] }));
    return catalog;
  };

  const family: OperationFamily = {
    rootFields: ['products', 'product', 'collections'],
    answer: (call) =>
      withFaults(faults, () => {
        const catalog = catalogOf(call.shop.domain);
        const sorted = [...catalog.products].sort((a, b) => a.id - b.id);
        const root: Record<string, Answer | Resolver> = {
          products: (args) => connection(sorted, args, (p) => productAnswer(p, catalog)),
          product: (args) => {
            const found = catalog.products.find((p) => p.id === numericOf(args.id));
            return found ? productAnswer(found, catalog) : null;
          },
          collections: (args) => connection(catalog.collections, args, (c) => ({ id: gid('Collection', c.id), handle: c.handle, title: c.title })),
        };
        return answerRoot(call.operation, root, call.variables);
      }),
  };

  const catalogFamily: CatalogFamily = {
    family,
    faults,
    route: imageRoute,
    origin: '',
    catalogOf,
    seed(domain, count, variantsPer = 2) {
      const catalog = catalogOf(domain);
      if (!catalog.collections.some((c) => c.handle === 'featured')) catalog.collections.push({ id: 7001, handle: 'featured', title: 'Featured' });
      for (let n = 0; n < count; n += 1) {
        const id = 1001 + catalog.products.length;
        catalog.products.push({
          id,
          title: `Product ${id}`,
          status: n % 17 === 16 ? 'DRAFT' : 'ACTIVE',
          // Every fifth product has no image, as real catalogs have some.
          imageUrl: n % 5 === 4 ? null : `${catalogFamily.origin}/cdn/product.svg?id=${id}`,
          variants: Array.from({ length: variantsPer }, (_, v) => ({
            id: id * 1000 + v,
            title: `Size ${v + 1}`,
            price: `${5 + ((id + v) % 6) * 5}.00`,
            inventoryQuantity: (id + v) % 7,
            inventoryPolicy: v % 2 === 0 ? 'DENY' : 'CONTINUE',
            tracked: true,
          })),
          collections: n % 10 === 0 ? [7001] : [],
        });
      }
      return catalog;
    },
  };
  return catalogFamily;
}
