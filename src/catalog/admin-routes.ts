/**
 * Admin API: the catalog (CONTRACT "Admin API" and "Product and collection"). Catalog writes
 * bump the rules version: collections feed the rules payload's collection map.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shopFromPath } from '../admin/admin-auth.ts';
import type { AppContext } from '../context.ts';
import { ApiError, notFound, parseOr400 } from '../http/errors.ts';
import { bumpRulesVersion } from '../shops/store.ts';
import { catalogUpsertBodySchema } from './schemas.ts';
import { markProductDeleted, upsertCatalog } from './store.ts';

const productParamsSchema = z.object({
  productId: z.string().regex(/^(gid:\/\/[A-Za-z0-9._-]+\/Product\/)?\d+$/, 'Expected a product gid or its numeric id'),
});

export function registerCatalogAdminRoutes(admin: FastifyInstance, ctx: AppContext): void {
  admin.post('/shops/:shopId/catalog', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const body = parseOr400(catalogUpsertBodySchema, request.body, 'Invalid catalog body');
    await ctx.db.transaction(async (tx) => {
      await bumpRulesVersion(tx, shop.id);
      const result = await upsertCatalog(tx, shop.id, body);
      if (!result.ok) {
        throw new ApiError('conflict', {
          error: 'Collection handle already in use',
          issue: `Handle ${result.handle} belongs to collection ${result.heldBy}`,
          path: ['collections', result.index, 'handle'],
        });
      }
    });
    ctx.rulesCache.invalidate(shop.id);
    return { ok: true as const };
  });

  admin.delete('/shops/:shopId/catalog/products/:productId', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const { productId } = parseOr400(productParamsSchema, request.params, 'Invalid path parameters');
    await ctx.db.transaction(async (tx) => {
      await bumpRulesVersion(tx, shop.id);
      // Thrown inside: the version bump of an unknown product rolls back with it.
      if (!(await markProductDeleted(tx, shop.id, productId))) throw notFound('Product');
    });
    ctx.rulesCache.invalidate(shop.id);
    return { ok: true as const };
  });
}
