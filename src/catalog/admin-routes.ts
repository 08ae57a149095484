/**
 * Admin API: the catalog (CONTRACT "Admin API" and "Product and collection"). Catalog writes
 * touch the rules: collections feed the rules payload's collection map. An upsert that makes a
 * live rule's gift sold out or back in stock also resyncs the checkout configuration of the
 * campaigns giving it (catalog/gift-stock-sync.ts).
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import {
  catalogListQuerySchema,
  catalogListResponseSchema,
  catalogUpsertBodySchema,
  catalogVariantsQuerySchema,
  catalogVariantsResponseSchema,
  encodeCatalogCursor,
} from './schemas.ts';
import { syncingGiftStock, upsertScope } from './gift-stock-sync.ts';
import { isSoldOut } from './stock.ts';
import { findListedVariants, listCatalogProducts, markProductDeleted, upsertCatalog } from './store.ts';

const productParamsSchema = z.object({
  productId: z.string().regex(/^(gid:\/\/[A-Za-z0-9._-]+\/Product\/)?\d+$/, 'Expected a product gid or its numeric id'),
});

const okSchema = z.object({ ok: z.literal(true) });

export function catalogAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/catalog',
      operationId: 'upsertCatalog',
      summary: 'Create or replace products and collections',
      description: 'Upserts by id; a collection `handle` belongs to one collection of the shop.',
      tag: 'Catalog',
      body: catalogUpsertBodySchema,
      bodyError: 'Invalid catalog body',
      responses: {
        200: { description: 'Stored', schema: okSchema },
        400: { description: '`{ "error": "Invalid catalog body", issue, path }`' },
        409: { description: 'A collection handle belongs to another collection: `{ "error": "Collection handle already in use", issue, path }`' },
      },
      handler: async ({ shop, body }) => {
        await writeShop(ctx, shop.id, async (uow) => {
          uow.touchRules();
          // A live gift made sold out or back in stock resyncs its campaigns' checkout configuration.
          const result = await syncingGiftStock(uow, upsertScope(body), () => upsertCatalog(uow.tx, shop.id, body));
          if (!result.ok) {
            throw new ApiError('conflict', {
              error: 'Collection handle already in use',
              issue: `Handle ${result.handle} belongs to collection ${result.heldBy}`,
              path: ['collections', result.index, 'handle'],
            });
          }
        });
        return { ok: true as const };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/catalog/products',
      operationId: 'listCatalogProducts',
      summary: 'List products with their variants and stock',
      description:
        'By product id, `limit` per page; `q` keeps the products whose title contains it (case-insensitive). ' +
        'Deleted products are left out unless `includeDeleted=true`. `soldOut`: policy DENY and no stock.',
      tag: 'Catalog',
      query: catalogListQuerySchema,
      responses: {
        200: { description: 'One page of products', schema: catalogListResponseSchema },
        400: { description: '`{ "error": "Invalid query", issue, path }`' },
      },
      handler: async ({ shop, query }) => {
        const { q, limit, cursor, includeDeleted } = query;
        const page = await listCatalogProducts(ctx.db, shop.id, { q, limit, afterId: cursor, includeDeleted });
        const last = page.products.at(-1);
        return {
          products: page.products.map((p) => ({ ...p, variants: p.variants.map((v) => ({ ...v, soldOut: isSoldOut(v) })) })),
          nextCursor: page.more && last ? encodeCatalogCursor(last.id) : null,
        };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/catalog/variants',
      operationId: 'findCatalogVariants',
      summary: 'Look up variants by id, with their products',
      description:
        'The variants named by `ids` (1–100, gids or numeric ids) wherever they sit in the catalog, deleted products included, ' +
        'grouped by product as `GET /catalog/products` lists them; an id the shop does not have is left out.',
      tag: 'Catalog',
      query: catalogVariantsQuerySchema,
      responses: {
        200: { description: 'The variants found', schema: catalogVariantsResponseSchema },
        400: { description: '`{ "error": "Invalid query parameters", issue, path }`: no ids, more than 100, or one that is not a variant id' },
      },
      handler: async ({ shop, query }) => {
        const numericIds = [...new Set(query.ids.map((id) => id.slice(id.lastIndexOf('/') + 1)))];
        const found = await findListedVariants(ctx.db, shop.id, numericIds);
        return { products: found.map((p) => ({ ...p, variants: p.variants.map((v) => ({ ...v, soldOut: isSoldOut(v) })) })) };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'DELETE',
      path: '/catalog/products/:productId',
      operationId: 'deleteCatalogProduct',
      summary: 'Mark a product deleted',
      tag: 'Catalog',
      params: productParamsSchema,
      responses: {
        200: { description: 'Marked deleted', schema: okSchema },
        400: { description: 'Not a product gid or numeric id' },
        404: { description: '`{ "error": "Product not found" }`' },
      },
      handler: async ({ shop, params }) => {
        const { productId } = params;
        await writeShop(ctx, shop.id, async ({ tx, touchRules }) => {
          touchRules();
          // No discount sync: a deleted product's variants keep their stock as the rules payload
          // reads it (catalog/gift-stock-sync.ts), so the checkout configuration stays as it is.
          // Thrown inside: nothing is bumped or invalidated for an unknown product.
          if (!(await markProductDeleted(tx, shop.id, productId))) throw notFound('Product');
        });
        return { ok: true as const };
      },
    }),
  ];
}
