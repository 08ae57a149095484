/**
 * Catalog shapes of CONTRACT "Product and collection": what the admin sends to mirror the
 * platform's products, variants and collections. They feed the enable health check and the
 * collection map of the rules payload.
 */
import { gidSchema, productGidSchema, textSchema, variantGidSchema } from '@gcrs/engine';
import { z } from 'zod';

export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export const INVENTORY_POLICIES = ['DENY', 'CONTINUE'] as const;

/** Upper bounds of one upsert request; larger catalogs are sent in several requests. */
export const MAX_PRODUCTS_PER_REQUEST = 1000;
export const MAX_COLLECTIONS_PER_REQUEST = 1000;

export const variantSchema = z.object({
  id: variantGidSchema,
  title: textSchema.max(255),
  inventoryQuantity: z.int().min(-1_000_000_000).max(1_000_000_000),
  inventoryPolicy: z.enum(INVENTORY_POLICIES),
  price: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .nullish()
    .meta({ description: "Minor units of the shop's currency (1999 = $19.99); absent or null when unknown" }),
});

/** A product image: an absolute http(s) URL (the platform's CDN), shown by the admin's gift picker. */
export const imageUrlSchema = z.url({ protocol: /^https?$/, error: 'Expected an http(s) image URL' }).max(2048);

export const productSchema = z.object({
  id: productGidSchema,
  title: textSchema.max(255),
  status: z.enum(PRODUCT_STATUSES),
  imageUrl: imageUrlSchema.nullish().meta({ description: 'The featured image; absent or null when it has none' }),
  variants: z.array(variantSchema).max(2048),
});

export const collectionSchema = z.object({
  id: gidSchema('Collection'),
  handle: textSchema.trim().min(1).max(255),
  productIds: z.array(productGidSchema).max(50_000),
});

/** Reports the index of the second occurrence of a key, so the 400 points at it. */
function firstDuplicate<T>(items: readonly T[], keyOf: (item: T) => string[]): { index: number; key: string } | undefined {
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    for (const key of keyOf(item)) {
      if (seen.has(key)) return { index, key };
      seen.add(key);
    }
  }
  return undefined;
}

export const catalogUpsertBodySchema = z
  .object({
    products: z.array(productSchema).max(MAX_PRODUCTS_PER_REQUEST),
    collections: z.array(collectionSchema).max(MAX_COLLECTIONS_PER_REQUEST).default([]),
  })
  .superRefine((body, ctx) => {
    // One request must say one thing about each id: a repeated id would make "last one wins" silent.
    const product = firstDuplicate(body.products, (p) => [p.id]);
    if (product) ctx.addIssue({ code: 'custom', message: `Product ${product.key} appears more than once`, path: ['products', product.index, 'id'] });
    const variant = firstDuplicate(body.products, (p) => p.variants.map((v) => v.id));
    if (variant) ctx.addIssue({ code: 'custom', message: `Variant ${variant.key} appears more than once`, path: ['products', variant.index, 'variants'] });
    const collection = firstDuplicate(body.collections, (c) => [c.id]);
    if (collection) ctx.addIssue({ code: 'custom', message: `Collection ${collection.key} appears more than once`, path: ['collections', collection.index, 'id'] });
    const handle = firstDuplicate(body.collections, (c) => [c.handle]);
    if (handle) ctx.addIssue({ code: 'custom', message: `Collection handle ${handle.key} appears more than once`, path: ['collections', handle.index, 'handle'] });
  });

export type CatalogProduct = z.output<typeof productSchema>;
export type CatalogCollection = z.output<typeof collectionSchema>;
export type CatalogUpsert = z.output<typeof catalogUpsertBodySchema>;

/**
 * The catalog listing's cursor: the last product id of a page, base64url, so a client treats
 * it as opaque. Decoding answers undefined for anything that is not such a cursor.
 *
 * @example
 *   decodeCatalogCursor(encodeCatalogCursor('gid://shopify/Product/7')); // 'gid://shopify/Product/7'
 */
export const encodeCatalogCursor = (productId: string): string => Buffer.from(productId, 'utf8').toString('base64url');
export function decodeCatalogCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const productId = Buffer.from(cursor, 'base64url').toString('utf8');
  return productGidSchema.safeParse(productId).success && encodeCatalogCursor(productId) === cursor ? productId : undefined;
}

/** `GET /catalog/products`: a title search, a page size and the opaque cursor of the previous page. */
export const catalogListQuerySchema = z.object({
  q: textSchema.max(255).optional().meta({ description: 'Products whose title contains this text, case-insensitive' }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z
    .string()
    .max(512)
    .transform((cursor, ctx) => {
      const afterId = decodeCatalogCursor(cursor);
      if (afterId === undefined) ctx.addIssue({ code: 'custom', message: 'Expected the nextCursor of a previous page' });
      return afterId;
    })
    .optional()
    .meta({ description: 'The `nextCursor` of the previous page' }),
  includeDeleted: z.enum(['true', 'false'], { message: 'Expected true or false' }).default('false').transform((value) => value === 'true'),
});

const listedVariantSchema = variantSchema.extend({
  price: z.int().nullable().meta({ description: "Minor units of the shop's currency; null when unknown" }),
  soldOut: z.boolean().meta({ description: 'Policy DENY and no stock: the platform will not sell it' }),
});

export const catalogListResponseSchema = z.object({
  products: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(PRODUCT_STATUSES),
      deleted: z.boolean(),
      imageUrl: z.string().nullable(),
      variants: z.array(listedVariantSchema),
    }),
  ),
  nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
});

export type CatalogListQuery = z.output<typeof catalogListQuerySchema>;

/** `GET /catalog/variants`: at most this many ids per request. */
export const MAX_VARIANT_LOOKUP = 100;

const variantIdSchema = z.string().regex(/^(gid:\/\/[A-Za-z0-9._-]+\/ProductVariant\/)?\d{1,20}$/, 'Expected a variant gid or its numeric id');

/**
 * `GET /catalog/variants?ids=…`: 1–100 variant ids (gids or numeric), comma-separated; the
 * admin names the gifts a screen shows with it, wherever they sit in the catalog.
 */
export const catalogVariantsQuerySchema = z.object({
  ids: z
    .string({ error: 'ids is required' })
    .transform((text) => text.split(',').map((id) => id.trim()))
    .pipe(z.array(variantIdSchema).min(1).max(MAX_VARIANT_LOOKUP, `At most ${MAX_VARIANT_LOOKUP} ids`))
    .meta({ description: `1–${MAX_VARIANT_LOOKUP} variant gids or numeric ids, comma-separated`, example: 'gid://shopify/ProductVariant/11,12' }),
});

export const catalogVariantsResponseSchema = z.object({
  products: catalogListResponseSchema.shape.products.meta({
    description: 'The products of the variants found, each with only those variants, by product id; an id the catalog does not hold is left out',
  }),
});
