/**
 * One page of the platform's catalog as the import reads it (PRODUCTS_QUERY), checked against
 * what the document selects, and turned into the catalog store's rows: products with their
 * variants (a variant whose stock is not tracked can always be sold: `CONTINUE`, as the products
 * webhooks say), the inventory item of each variant, and the collections they belong to.
 */
import { z } from 'zod';
import { imageUrlSchema } from '../catalog/schemas.ts';
import type { CatalogUpsert } from '../catalog/schemas.ts';
import { decimalToMinorUnits } from '../platform-webhooks/decimal.ts';

const STATUSES = { ACTIVE: 'active', UNLISTED: 'active', DRAFT: 'draft', ARCHIVED: 'archived' } as const;
const clamp = (quantity: number): number => Math.max(-1_000_000_000, Math.min(1_000_000_000, quantity));

const pageInfoSchema = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });
export const variantSchema = z.object({
  id: z.string().startsWith('gid://shopify/ProductVariant/'),
  title: z.string(),
  /** The platform's Money scalar: a decimal in the shop's currency. */
  price: z.string(),
  inventoryQuantity: z.int().nullable(),
  inventoryPolicy: z.enum(['DENY', 'CONTINUE']),
  inventoryItem: z.object({ id: z.string(), tracked: z.boolean() }),
});
export const variantConnectionSchema = z.object({ nodes: z.array(variantSchema), pageInfo: pageInfoSchema });
const productSchema = z.object({
  id: z.string().startsWith('gid://shopify/Product/'),
  title: z.string(),
  status: z.enum(['ACTIVE', 'ARCHIVED', 'DRAFT', 'UNLISTED']),
  featuredMedia: z.object({ preview: z.object({ image: z.object({ url: z.string() }).nullable() }).nullable() }).nullable(),
  variants: variantConnectionSchema,
  collections: z.object({ nodes: z.array(z.object({ id: z.string().startsWith('gid://shopify/Collection/'), handle: z.string().min(1) })) }),
});
export const productsPageSchema = z.object({ products: z.object({ nodes: z.array(productSchema), pageInfo: pageInfoSchema }) });
export const productVariantsSchema = z.object({ product: z.object({ variants: variantConnectionSchema }).nullable() });

export type PlatformVariant = z.output<typeof variantSchema>;
export type ProductsPage = z.output<typeof productsPageSchema>;

export type ImportRows = {
  upsert: CatalogUpsert;
  inventoryItems: Array<{ id: string; variantId: string }>;
  /** Collection gid → handle and the page's products in it. */
  collections: Map<string, { handle: string; productIds: string[] }>;
};

/**
 * The store's rows for one page; `moreVariants` holds the variants read after the page for the
 * products that have more than the page's first ones. Prices are the shop's `currency` in minor
 * units; an image URL that is not http(s) is left out (the product is still imported).
 *
 * @example const rows = importRows(page, new Map(), 'USD');
 */
export function importRows(page: ProductsPage, moreVariants: ReadonlyMap<string, readonly PlatformVariant[]>, currency: string): ImportRows {
  const inventoryItems: ImportRows['inventoryItems'] = [];
  const collections: ImportRows['collections'] = new Map();
  const products = page.products.nodes.map((product) => {
    const variants = [...product.variants.nodes, ...(moreVariants.get(product.id) ?? [])];
    for (const variant of variants) {
      const digits = /[0-9]+$/.exec(variant.inventoryItem.id)?.[0];
      if (digits !== undefined) inventoryItems.push({ id: digits, variantId: variant.id });
    }
    for (const collection of product.collections.nodes) {
      const entry = collections.get(collection.id) ?? { handle: collection.handle, productIds: [] };
      entry.productIds.push(product.id);
      collections.set(collection.id, entry);
    }
    return {
      id: product.id,
      title: product.title,
      status: STATUSES[product.status],
      imageUrl: imageUrlSchema.safeParse(product.featuredMedia?.preview?.image?.url).data ?? null,
      variants: variants.map((variant) => ({
        id: variant.id,
        title: variant.title,
        price: decimalToMinorUnits(variant.price, currency) ?? null,
        inventoryQuantity: clamp(variant.inventoryQuantity ?? 0),
        inventoryPolicy: variant.inventoryItem.tracked ? variant.inventoryPolicy : ('CONTINUE' as const),
      })),
    };
  });
  return { upsert: { products, collections: [] }, inventoryItems, collections };
}
