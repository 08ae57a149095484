/**
 * Admin API: the catalog (CONTRACT "Admin API" and "Product and collection"). Catalog writes
 * touch the rules: collections feed the rules payload's collection map.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { catalogUpsertBodySchema } from './schemas.ts';
import { markProductDeleted, upsertCatalog } from './store.ts';

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
        await writeShop(ctx, shop.id, async ({ tx, touchRules }) => {
          touchRules();
          const result = await upsertCatalog(tx, shop.id, body);
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
          // Thrown inside: nothing is bumped or invalidated for an unknown product.
          if (!(await markProductDeleted(tx, shop.id, productId))) throw notFound('Product');
        });
        return { ok: true as const };
      },
    }),
  ];
}
