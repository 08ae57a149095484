/** Both order routes end here: validate the Order, record it, answer `{ ok: true, duplicate }`. */
import { ApiError, parseOr400 } from '../http/errors.ts';
import type { ShopRecord } from '../shops/store.ts';
import type { WriteShopDeps } from '../shops/unit-of-work.ts';
import { recordOrder } from './intake.ts';
import type { IntakeResult } from './intake.ts';
import { orderSchema } from './schema.ts';
import type { Order } from './schema.ts';

/**
 * Parses `body` as an Order and records it for `shop`; 400 on a bad body or a currency
 * other than the shop's base currency.
 *
 * @example
 *   return receiveOrder(ctx, shop, request.body); // { ok: true, duplicate: false }
 */
export async function receiveOrder(deps: WriteShopDeps, shop: ShopRecord, body: unknown): Promise<{ ok: true; duplicate: boolean }> {
  return recordReceivedOrder(deps, shop, parseOr400(orderSchema, body, 'Invalid order body'));
}

/**
 * Records an Order already parsed by {@link orderSchema} (the admin route's mount parses it);
 * 400 on a currency other than the shop's base currency.
 *
 * @example
 *   return recordReceivedOrder(ctx, shop, body); // { ok: true, duplicate: true } on a repeat
 */
export async function recordReceivedOrder(deps: WriteShopDeps, shop: ShopRecord, order: Order): Promise<{ ok: true; duplicate: boolean }> {
  return acceptedOrder(await recordOrder(deps, shop, order));
}

/**
 * An intake result as every order route answers it: `{ ok: true, duplicate }`, or the 400 of
 * an order in another currency than the shop's (thrown, so a transaction around it rolls back).
 *
 * @example
 *   return acceptedOrder(await recordOrderIn(uow, order)); // { ok: true, duplicate: false }
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
