/** Admin API: shops (CONTRACT "Admin API"). */
import type { FastifyInstance } from 'fastify';
import { shopFromPath } from '../admin/admin-auth.ts';
import type { AppContext } from '../context.ts';
import { ApiError, parseOr400 } from '../http/errors.ts';
import { createShopBodySchema, mergeLimits, patchShopBodySchema, presentShop } from './shop-schemas.ts';
import { mergeShopSettings } from './settings.ts';
import { createShop, DuplicateDomainError, updateShop } from './store.ts';

export function registerShopAdminRoutes(admin: FastifyInstance, ctx: AppContext): void {
  admin.post('/shops', async (request, reply) => {
    const body = parseOr400(createShopBodySchema, request.body, 'Invalid request body');
    try {
      const shop = await createShop(ctx.db, body);
      return reply.code(201).send({ shop: presentShop(shop, ctx.config.planCaps) });
    } catch (error) {
      if (error instanceof DuplicateDomainError) {
        throw new ApiError('conflict', { error: 'Shop domain already registered', path: ['domain'] });
      }
      throw error;
    }
  });

  admin.get('/shops/:shopId', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    return { shop: presentShop(shop, ctx.config.planCaps) };
  });

  admin.patch('/shops/:shopId', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const body = parseOr400(patchShopBodySchema, request.body ?? {}, 'Invalid request body');
    const updated = await updateShop(ctx.db, shop.id, {
      ...(body.plan === undefined ? {} : { plan: body.plan }),
      ...(body.currency === undefined ? {} : { currency: body.currency }),
      ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
      ...(body.limits === undefined ? {} : { limits: mergeLimits(shop.limits, body.limits) }),
      ...(body.settings === undefined ? {} : { settings: mergeShopSettings(shop.settings, body.settings) }),
    });
    if (!updated) throw new ApiError('not_found', { error: 'Shop not found' });
    // Plan and settings shape GET /rules: evict on every instance now, not at their next read.
    ctx.rulesCache.invalidate(shop.id);
    return { shop: presentShop(updated, ctx.config.planCaps) };
  });
}
