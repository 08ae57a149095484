/**
 * How `/admin/v1` authenticates (CONTRACT "Admin API"): the operator's ADMIN_TOKEN as a
 * Bearer token, compared in constant time. Per-shop routes then find the shop by path.
 */
import { textSchema } from '@gcrs/engine';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { bearerToken, secretsEqual } from '../http/bearer.ts';
import { notFound, parseOr400, unauthorized } from '../http/errors.ts';
import type { ShopResolver, ShopScopedRoute } from '../http/shop-routes.ts';
import { getShop } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';

/** Throws 401 unless the request carries the admin token. */
export function assertAdmin(request: FastifyRequest, adminToken: string): void {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined || !secretsEqual(token, adminToken)) throw unauthorized();
}

const shopParamsSchema = z.object({ shopId: textSchema.min(1) });

/**
 * The shop named by `:shopId`: 400 when the id is text no store can hold (a NUL, a lone
 * surrogate), else the shop or 404 `Shop not found`.
 */
export async function shopFromPath(db: Database, request: FastifyRequest): Promise<ShopRecord> {
  const { shopId } = parseOr400(shopParamsSchema, request.params, 'Invalid path parameters');
  const shop = await getShop(db, shopId);
  if (!shop) throw notFound('Shop');
  return shop;
}

/**
 * Finds the shop of an admin per-shop route, public or admin-only alike; the admin scope's
 * hook has already checked the token.
 */
export function createAdminShopResolver(deps: { db: Database }): ShopResolver<ShopScopedRoute> {
  return async (request) => {
    const shop = await shopFromPath(deps.db, request);
    request.log = request.log.child({ shopId: shop.id, admin: true });
    return shop;
  };
}
