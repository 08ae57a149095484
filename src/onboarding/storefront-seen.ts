/**
 * The app embed's one signal (docs/merchant-admin.md "Getting started"): the platform gives an
 * app no way to ask whether a theme's app embed is switched on, but only a switched-on embed
 * loads the storefront script, and the script's first request comes through the app proxy. So
 * the first app-proxy request of a shop sets `shops.storefront_seen_at`, once.
 *
 * The proxy is a hot path: each process writes at most once per shop (the UPDATE matches only a
 * row without the time), then remembers the shop and writes nothing more.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { shops } from '../db/schema.ts';

/** Notes that `shopId`'s storefront reached the service. */
export type StorefrontSeen = (shopId: string) => Promise<void>;

/** @example const seen = createStorefrontSeen(ctx.db, ctx.now); await seen(shop.id); */
export function createStorefrontSeen(db: Queryable, now: () => Date): StorefrontSeen {
  const known = new Set<string>();
  return async (shopId) => {
    if (known.has(shopId)) return;
    await db.update(shops).set({ storefrontSeenAt: now() }).where(and(eq(shops.id, shopId), isNull(shops.storefrontSeenAt)));
    known.add(shopId);
  };
}
