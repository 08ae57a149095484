/**
 * The shop's mirror of the platform catalog. Every function takes the shop id first.
 * Ids are stored as gids; lookups compare by numeric id, as the engine does (SPEC: a numeric
 * id is extracted from a gid), so a rule written with either form finds its product.
 */
import { and, asc, eq, gt, ilike, inArray, notInArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/database.ts';
import { collections, products, variants } from '../db/schema.ts';
import type { CatalogUpsert, ProductStatus } from './schemas.ts';

/** What the health check needs to know about one variant. */
export type CatalogVariant = {
  id: string;
  productId: string;
  title: string;
  inventoryQuantity: number;
  inventoryPolicy: string;
  /** Minor units of the shop's currency; null when the source did not say. */
  price: number | null;
  productTitle: string;
  productStatus: ProductStatus;
  productDeleted: boolean;
};

export type CatalogProductState = { id: string; title: string; status: ProductStatus; deleted: boolean };

// Keeps each INSERT well under PostgreSQL's 65,535 bind parameters.
const BATCH = 500;

const numericTail = (column: AnyPgColumn): SQL<string> => sql<string>`substring(${column} from '[0-9]+$')`;

/**
 * Upserts products (their variants replaced by the ones sent; a re-sent deleted product is
 * live again) and collections. Returns the id of a stored collection whose handle a new
 * collection would take, instead of writing anything, so the caller can answer 409.
 *
 * @example
 *   await upsertCatalog(tx, shop.id, { products: [product], collections: [] });
 */
export async function upsertCatalog(
  tx: Queryable,
  shopId: string,
  input: CatalogUpsert,
): Promise<{ ok: true } | { ok: false; handle: string; heldBy: string; index: number }> {
  const clash = await findHandleClash(tx, shopId, input.collections);
  if (clash) return { ok: false, ...clash };
  const now = new Date();
  for (let start = 0; start < input.products.length; start += BATCH) {
    const batch = input.products.slice(start, start + BATCH);
    await tx
      .insert(products)
      .values(batch.map((p) => ({ shopId, id: p.id, title: p.title, status: p.status, imageUrl: p.imageUrl ?? null, deleted: false, updatedAt: now })))
      .onConflictDoUpdate({
        target: [products.shopId, products.id],
        set: { title: sql`excluded.title`, status: sql`excluded.status`, imageUrl: sql`excluded.image_url`, deleted: false, updatedAt: now },
      });
    await tx.delete(variants).where(and(eq(variants.shopId, shopId), inArray(variants.productId, batch.map((p) => p.id))));
  }
  const variantRows = input.products.flatMap((p) =>
    p.variants.map((v) => ({
      shopId,
      id: v.id,
      productId: p.id,
      title: v.title,
      inventoryQuantity: v.inventoryQuantity,
      inventoryPolicy: v.inventoryPolicy,
      price: v.price ?? null,
    })),
  );
  for (let start = 0; start < variantRows.length; start += BATCH) {
    // A variant that moved from a product not in this request is taken over, not duplicated.
    await tx
      .insert(variants)
      .values(variantRows.slice(start, start + BATCH))
      .onConflictDoUpdate({
        target: [variants.shopId, variants.id],
        set: {
          productId: sql`excluded.product_id`,
          title: sql`excluded.title`,
          inventoryQuantity: sql`excluded.inventory_quantity`,
          inventoryPolicy: sql`excluded.inventory_policy`,
          price: sql`excluded.price`,
        },
      });
  }
  for (let start = 0; start < input.collections.length; start += BATCH) {
    await tx
      .insert(collections)
      .values(input.collections.slice(start, start + BATCH).map((c) => ({ shopId, id: c.id, handle: c.handle, productIds: c.productIds })))
      .onConflictDoUpdate({
        target: [collections.shopId, collections.id],
        set: { handle: sql`excluded.handle`, productIds: sql`excluded.product_ids` },
      });
  }
  return { ok: true };
}

async function findHandleClash(
  tx: Queryable,
  shopId: string,
  incoming: CatalogUpsert['collections'],
): Promise<{ handle: string; heldBy: string; index: number } | undefined> {
  if (incoming.length === 0) return undefined;
  const rows = await tx
    .select({ id: collections.id, handle: collections.handle })
    .from(collections)
    .where(
      and(
        eq(collections.shopId, shopId),
        inArray(collections.handle, incoming.map((c) => c.handle)),
        notInArray(collections.id, incoming.map((c) => c.id)),
      ),
    );
  const first = rows[0];
  if (!first) return undefined;
  return { handle: first.handle, heldBy: first.id, index: incoming.findIndex((c) => c.handle === first.handle) };
}

/**
 * Marks a product deleted (its rows stay, so the health check can say `deleted`).
 * `productId` is a product gid or its numeric id. Returns false when the shop has no such product.
 *
 * @example
 *   await markProductDeleted(tx, shop.id, 'gid://shopify/Product/42'); // true
 */
export async function markProductDeleted(tx: Queryable, shopId: string, productId: string): Promise<boolean> {
  const match = /^\d+$/.test(productId) ? eq(numericTail(products.id), productId) : eq(products.id, productId);
  const rows = await tx
    .update(products)
    .set({ deleted: true, updatedAt: new Date() })
    .where(and(eq(products.shopId, shopId), match))
    .returning({ id: products.id });
  return rows.length > 0;
}

/** The variants with these numeric ids, with their products' title and state. */
export async function findVariants(db: Queryable, shopId: string, numericIds: readonly string[]): Promise<CatalogVariant[]> {
  if (numericIds.length === 0) return [];
  const rows = await db
    .select({
      id: variants.id,
      productId: variants.productId,
      title: variants.title,
      inventoryQuantity: variants.inventoryQuantity,
      inventoryPolicy: variants.inventoryPolicy,
      price: variants.price,
      productTitle: products.title,
      productStatus: products.status,
      productDeleted: products.deleted,
    })
    .from(variants)
    .innerJoin(products, and(eq(products.shopId, variants.shopId), eq(products.id, variants.productId)))
    .where(and(eq(variants.shopId, shopId), inArray(numericTail(variants.id), [...numericIds])));
  return rows.map((row) => ({ ...row, productStatus: row.productStatus as ProductStatus }));
}

/** The products with these numeric ids. */
export async function findProducts(db: Queryable, shopId: string, numericIds: readonly string[]): Promise<CatalogProductState[]> {
  if (numericIds.length === 0) return [];
  const rows = await db
    .select({ id: products.id, title: products.title, status: products.status, deleted: products.deleted })
    .from(products)
    .where(and(eq(products.shopId, shopId), inArray(numericTail(products.id), [...numericIds])));
  return rows.map((row) => ({ ...row, status: row.status as ProductStatus }));
}

export type CatalogListedProduct = CatalogProductState & {
  imageUrl: string | null;
  variants: { id: string; title: string; inventoryQuantity: number; inventoryPolicy: string; price: number | null }[];
};

/**
 * The variants with these numeric ids and their products, grouped by product (product id
 * order), deleted products included: a saved gift names the product it is, gone or not.
 *
 * @example
 *   await findListedVariants(db, shop.id, ['11', '12']); // [{ id: 'gid://…/Product/1', variants: [two] }]
 */
export async function findListedVariants(db: Queryable, shopId: string, numericIds: readonly string[]): Promise<CatalogListedProduct[]> {
  if (numericIds.length === 0) return [];
  const rows = await db
    .select({
      product: { id: products.id, title: products.title, status: products.status, deleted: products.deleted, imageUrl: products.imageUrl },
      variant: { id: variants.id, title: variants.title, inventoryQuantity: variants.inventoryQuantity, inventoryPolicy: variants.inventoryPolicy, price: variants.price },
    })
    .from(variants)
    .innerJoin(products, and(eq(products.shopId, variants.shopId), eq(products.id, variants.productId)))
    .where(and(eq(variants.shopId, shopId), inArray(numericTail(variants.id), [...numericIds])))
    .orderBy(asc(products.id), asc(variants.id));
  const byProduct = new Map<string, CatalogListedProduct>();
  for (const { product, variant } of rows) {
    const listed = byProduct.get(product.id) ?? { ...product, status: product.status as ProductStatus, variants: [] };
    listed.variants.push(variant);
    byProduct.set(product.id, listed);
  }
  return [...byProduct.values()];
}

/** LIKE's wildcards and its escape character, matched literally. */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the shop's products with their variants, by product id (keyset: the products
 * after `afterId`), `limit` + 1 read so the caller knows whether another page follows.
 *
 * @example
 *   await listCatalogProducts(db, shop.id, { q: 'mug', limit: 50, includeDeleted: false }); // { products, more }
 */
export async function listCatalogProducts(
  db: Queryable,
  shopId: string,
  query: { q?: string | undefined; limit: number; afterId?: string | undefined; includeDeleted: boolean },
): Promise<{ products: CatalogListedProduct[]; more: boolean }> {
  const rows = await db
    .select({ id: products.id, title: products.title, status: products.status, deleted: products.deleted, imageUrl: products.imageUrl })
    .from(products)
    .where(
      and(
        eq(products.shopId, shopId),
        query.includeDeleted ? undefined : eq(products.deleted, false),
        query.q === undefined || query.q === '' ? undefined : ilike(products.title, `%${likeLiteral(query.q)}%`),
        query.afterId === undefined ? undefined : gt(products.id, query.afterId),
      ),
    )
    .orderBy(asc(products.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const variantRows =
    page.length === 0
      ? []
      : await db
          .select({
            id: variants.id,
            productId: variants.productId,
            title: variants.title,
            inventoryQuantity: variants.inventoryQuantity,
            inventoryPolicy: variants.inventoryPolicy,
            price: variants.price,
          })
          .from(variants)
          .where(and(eq(variants.shopId, shopId), inArray(variants.productId, page.map((p) => p.id))))
          .orderBy(asc(variants.id));
  const byProduct = new Map<string, CatalogListedProduct['variants']>();
  for (const { productId, ...variant } of variantRows) {
    const list = byProduct.get(productId) ?? [];
    list.push(variant);
    byProduct.set(productId, list);
  }
  return {
    products: page.map((row) => ({ ...row, status: row.status as ProductStatus, variants: byProduct.get(row.id) ?? [] })),
    more: rows.length > query.limit,
  };
}
