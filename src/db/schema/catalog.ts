/** The catalog mirrored from the platform: products, variants, collections, inventory, imports. */
import { bigint, boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { shops } from './shops.ts';

export const products = pgTable(
  'products',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    title: text('title').notNull(),
    status: text('status').notNull(),
    deleted: boolean('deleted').notNull().default(false),
    /** The product's featured image (the platform's CDN URL), for the admin's gift picker; null when it has none. */
    imageUrl: text('image_url'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

export const variants = pgTable(
  'variants',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    productId: text('product_id').notNull(),
    title: text('title').notNull(),
    inventoryQuantity: integer('inventory_quantity').notNull(),
    inventoryPolicy: text('inventory_policy').notNull(),
    /** Minor units of the shop's currency; null when the source did not say. */
    price: bigint('price', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('variants_shop_product_idx').on(t.shopId, t.productId),
    foreignKey({ columns: [t.shopId, t.productId], foreignColumns: [products.shopId, products.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const collections = pgTable(
  'collections',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    handle: text('handle').notNull(),
    productIds: jsonb('product_ids').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] }), uniqueIndex('collections_shop_handle_key').on(t.shopId, t.handle)],
);

/**
 * The platform's inventory items (CONTRACT part two "Platform webhooks"): `inventory_levels/update`
 * names an inventory item, not a variant; products webhooks say which variant each item is.
 */
export const inventoryItems = pgTable(
  'inventory_items',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    /** The platform's numeric inventory item id, as digits (it may exceed 2^53). */
    id: text('id').notNull(),
    /** The variant gid (variants.id) the item belongs to. */
    variantId: text('variant_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

/** The last `available` the platform reported for an inventory item at one location. */
export const inventoryLevels = pgTable(
  'inventory_levels',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    inventoryItemId: text('inventory_item_id').notNull(),
    locationId: text('location_id').notNull(),
    available: integer('available').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.inventoryItemId, t.locationId] })],
);

/**
 * The shop's catalog import from the platform (docs/install.md "The jobs"): one row per shop,
 * replaced by each install. `cursor` is the Admin API's `endCursor` of the last page stored, written
 * in the transaction of that page's rows, so an import stopped by a crash resumes after it.
 */
export const catalogImports = pgTable('catalog_imports', {
  shopId: text('shop_id').primaryKey().references(() => shops.id, { onDelete: 'cascade' }),
  /** `imp_…`: names this run's outbox jobs, so a job of an older run cannot move this one. */
  id: text('id').notNull(),
  /** running → done (an import that used up its outbox attempts stays running, with its last error) */
  status: text('status').notNull(),
  cursor: text('cursor'),
  pages: integer('pages').notNull().default(0),
  products: integer('products').notNull().default(0),
  variants: integer('variants').notNull().default(0),
  startedAt: ts('started_at').notNull(),
  finishedAt: ts('finished_at'),
  lastError: text('last_error'),
});
