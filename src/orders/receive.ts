/** Both order routes end here: validate the Order, record it, answer `{ ok: true, duplicate }`. */
import type { ShopVersions } from '../cache/shop-versions.ts';
import type { Database } from '../db/database.ts';
import { ApiError, parseOr400 } from '../http/errors.ts';
import type { RulesCache } from '../rules/rules-cache.ts';
import type { ShopRecord } from '../shops/store.ts';
import { recordOrder } from './intake.ts';
import type { IntakeResult } from './intake.ts';
import { orderSchema } from './schema.ts';
import type { Order } from './schema.ts';

/** What intake needs beside the database: the caches an order that spends a budget makes stale. */
export type IntakeDeps = { db: Database; rulesCache: Pick<RulesCache, 'invalidate'>; shopVersions: Pick<ShopVersions, 'bump'> };

/**
 * After an intake transaction commits: when the order spent a gift budget, GET /rules is
 * evicted on every instance and the shop's shared version bumped (as writeShop does), so no
 * instance keeps serving the spent rule.
 *
 * @example
 *   await afterIntake(ctx, shop.id, result);
 */
export async function afterIntake(deps: Omit<IntakeDeps, 'db'>, shopId: string, result: IntakeResult): Promise<void> {
  if (!result.ok || !result.rulesChanged) return;
  deps.rulesCache.invalidate(shopId);
  await deps.shopVersions.bump(shopId);
}

/**
 * Parses `body` as an Order and records it for `shop`; 400 on a bad body or a currency
 * other than the shop's base currency.
 *
 * @example
 *   return receiveOrder(ctx, shop, request.body); // { ok: true, duplicate: false }
 */
export async function receiveOrder(deps: IntakeDeps, shop: ShopRecord, body: unknown): Promise<{ ok: true; duplicate: boolean }> {
  return recordReceivedOrder(deps, shop, parseOr400(orderSchema, body, 'Invalid order body'));
}

/**
 * Records an Order already parsed by {@link orderSchema} (the admin route's mount parses it);
 * 400 on a currency other than the shop's base currency.
 *
 * @example
 *   return recordReceivedOrder(ctx, shop, body); // { ok: true, duplicate: true } on a repeat
 */
export async function recordReceivedOrder(deps: IntakeDeps, shop: ShopRecord, order: Order): Promise<{ ok: true; duplicate: boolean }> {
  const result = await recordOrder(deps.db, shop, order);
  await afterIntake(deps, shop.id, result);
  return acceptedOrder(result);
}

/**
 * An intake result as every order route answers it: `{ ok: true, duplicate }`, or the 400 of
 * an order in another currency than the shop's (thrown, so a transaction around it rolls back).
 *
 * @example
 *   return acceptedOrder(await recordOrderIn(tx, shop, order)); // { ok: true, duplicate: false }
 */
export function acceptedOrder(result: IntakeResult): { ok: true; duplicate: boolean } {
  if (!result.ok) {
    throw new ApiError('validation', {
      error: 'Invalid order body',
      issue: `Order amounts must be in the shop's base currency (${result.expected})`,
      path: ['currency'],
    });
  }
  return { ok: true, duplicate: result.duplicate };
}
