/**
 * How `/admin/v1` authenticates (CONTRACT "Admin API"): the operator's ADMIN_TOKEN as a
 * Bearer token, compared in constant time. Per-shop routes then find the shop by path.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { bearerToken, secretsEqual } from '../http/bearer.ts';
import { notFound, unauthorized } from '../http/errors.ts';
import type { ShopResolver, ShopScopedRoute } from '../http/shop-routes.ts';
import { getShop } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';

/** Throws 401 unless the request carries the admin token. */
export function assertAdmin(request: FastifyRequest, adminToken: string): void {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined || !secretsEqual(token, adminToken)) throw unauthorized();
}

/** The shop named by `:shopId`, or 404 `Shop not found`. */
export async function shopFromPath(db: Database, request: FastifyRequest): Promise<ShopRecord> {
  const { shopId } = request.params as { shopId?: unknown };
  const shop = typeof shopId === 'string' ? await getShop(db, shopId) : undefined;
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
