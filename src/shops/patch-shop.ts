/**
 * Admin `PATCH /shops/:shopId`: `limits` and `settings` are merged into the stored values,
 * so the merge runs against the row locked by the unit of work. Two concurrent PATCHes of
 * different keys therefore both survive; merged against the copy authentication read, the
 * second would write back the first's keys as they were before it (a lost update).
 */
import type { z } from 'zod';
import { mergeLimits } from './shop-schemas.ts';
import type { patchShopBodySchema } from './shop-schemas.ts';
import { mergeShopSettings } from './settings.ts';
import { setShopFields } from './store.ts';
import type { ShopRecord } from './store.ts';
import { writeShop } from './unit-of-work.ts';
import type { WriteShopDeps } from './unit-of-work.ts';

export type ShopPatch = z.infer<typeof patchShopBodySchema>;

/**
 * Applies a PATCH body to the shop and returns the shop as stored. Plan and settings shape
 * GET /rules, so the rules are touched (version bumped, cache evicted on every instance).
 *
 * @example
 *   const shop = await patchShop(ctx, shopId, { settings: { engine: { evaluationDelay: 100 } } });
 */
export async function patchShop(deps: WriteShopDeps, shopId: string, body: ShopPatch): Promise<ShopRecord> {
  return writeShop(deps, shopId, async (uow) => {
    const stored = uow.shop;
    const updated = await setShopFields(uow.tx, stored.id, {
      ...(body.plan === undefined ? {} : { plan: body.plan }),
      ...(body.currency === undefined ? {} : { currency: body.currency }),
      ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
      ...(body.limits === undefined ? {} : { limits: mergeLimits(stored.limits, body.limits) }),
      ...(body.settings === undefined ? {} : { settings: mergeShopSettings(stored.settings, body.settings) }),
    });
    // The row is locked by this transaction, so it cannot have disappeared since.
    if (!updated) throw new Error('locked shop row vanished');
    uow.touchRules();
    return updated;
  });
}
