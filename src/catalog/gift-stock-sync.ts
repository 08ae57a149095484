/**
 * Gift stock and the checkout configuration (docs/lifecycle-catalog-webhooks.md "Catalog writes
 * and the checkout configuration"). The rules payload and the checkout function's configuration,
 * built from it, both leave out sold-out gifts (rules/gift-stock.ts), so a catalog write that
 * makes a live rule's gift sold out or back in stock must resync the configuration, or the
 * storefront would add a gift the checkout charges for (or the reverse).
 *
 * Every catalog write goes through here, in its own unit of work: the platform's catalog
 * webhooks, the admin's POST /catalog and the install's catalog import pages. Each compares the
 * stock of the live gifts among the variants it writes before and after the write, and the live
 * campaigns whose enabled rules give a variant that crossed get the rules touched and one
 * discount sync each. Nothing when no live rule gives a variant written, or none crossed: an
 * import page of other products, or a `10 → 9`, queues nothing.
 *
 * "Sold out" is load-source's (catalog/stock.ts `isSoldOut` on the stored variant): a deleted
 * product's variants keep their stock there (product status is the health check's business), so
 * deleting a product crosses nothing; a variant the catalog no longer has is in stock, as an
 * unknown one is.
 */
import { numericIdOf } from '@gcrs/engine';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { discountSyncEvents } from '../campaigns/transitions.ts';
import type { Queryable } from '../db/database.ts';
import { campaigns, rules, variants } from '../db/schema.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import { isSoldOut } from './stock.ts';

/** What a write can change the stock of: the stored variants of `productIds`, and `variantIds` wherever they are stored. */
export type StockScope = { productIds: readonly string[]; variantIds: readonly string[] };

/** Numeric id → the live campaigns with an enabled rule giving that variant. */
type LiveGifts = Map<string, Set<string>>;

// Keeps each IN list well under PostgreSQL's 65,535 bind parameters.
const BATCH = 500;

const keyOf = (variantId: string): string => numericIdOf(variantId) ?? variantId;

/** The gifts of the shop's live campaigns' enabled rules, by numeric variant id. */
async function liveGifts(uow: ShopUnitOfWork): Promise<LiveGifts> {
  const live = await uow.tx
    .select({ campaignId: rules.campaignId, giftConfig: rules.giftConfig })
    .from(rules)
    .innerJoin(campaigns, and(eq(campaigns.shopId, rules.shopId), eq(campaigns.id, rules.campaignId)))
    .where(and(eq(rules.shopId, uow.shop.id), eq(rules.enabled, true), eq(campaigns.enabled, true), eq(campaigns.isDraft, false)));
  const gifts: LiveGifts = new Map();
  for (const row of live) {
    for (const gift of row.giftConfig.gifts) {
      const key = keyOf(String(gift.variantId));
      gifts.set(key, (gifts.get(key) ?? new Set()).add(row.campaignId));
    }
  }
  return gifts;
}

/** The live campaigns giving one of `variantIds` (gids or numeric ids), sorted. */
function campaignsGiving(gifts: LiveGifts, variantIds: readonly string[]): string[] {
  return [...new Set(variantIds.flatMap((id) => [...(gifts.get(keyOf(id)) ?? [])]))].sort();
}

/** Sold-out state, by variant gid, of the stored variants in `scope` that a live rule gives. */
async function liveGiftStock(tx: Queryable, shopId: string, scope: StockScope, gifts: LiveGifts): Promise<Map<string, boolean>> {
  const columns = { id: variants.id, inventoryQuantity: variants.inventoryQuantity, inventoryPolicy: variants.inventoryPolicy };
  const rows: Array<{ id: string; inventoryQuantity: number; inventoryPolicy: string }> = [];
  // Only the live gifts among the products' variants come back (compared by numeric id, as the catalog store does).
  const isGift = inArray(sql<string>`substring(${variants.id} from '[0-9]+$')`, [...gifts.keys()]);
  for (let start = 0; start < scope.productIds.length; start += BATCH) {
    const batch = scope.productIds.slice(start, start + BATCH);
    rows.push(...(await tx.select(columns).from(variants).where(and(eq(variants.shopId, shopId), inArray(variants.productId, batch), isGift))));
  }
  // A variant sent under a product it is not stored under yet (it moves there): its stock before too.
  const given = [...new Set(scope.variantIds)].filter((id) => gifts.has(keyOf(id)));
  for (let start = 0; start < given.length; start += BATCH) {
    const batch = given.slice(start, start + BATCH);
    rows.push(...(await tx.select(columns).from(variants).where(and(eq(variants.shopId, shopId), inArray(variants.id, batch)))));
  }
  return new Map(rows.filter((row) => gifts.has(keyOf(row.id))).map((row) => [row.id, isSoldOut(row)]));
}

/** The variants sold out in one map and not in the other (absent: in stock). */
function crossed(before: ReadonlyMap<string, boolean>, after: ReadonlyMap<string, boolean>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((id) => (before.get(id) ?? false) !== (after.get(id) ?? false));
}

/**
 * The live campaigns with an enabled rule giving one of `variantIds` (gids or numeric ids), sorted.
 *
 * @example
 *   if ((await liveCampaignsGiving(uow, renamed)).length > 0) uow.touchRules();
 */
export async function liveCampaignsGiving(uow: ShopUnitOfWork, variantIds: readonly string[]): Promise<string[]> {
  if (variantIds.length === 0) return [];
  return campaignsGiving(await liveGifts(uow), variantIds);
}

/** Touches the rules and queues one discount sync per campaign; nothing for none. */
function resync(uow: ShopUnitOfWork, concerned: readonly string[]): void {
  if (concerned.length === 0) return;
  uow.touchRules();
  uow.enqueue(...discountSyncEvents(concerned));
}

/**
 * After `variantIds` crossed between sold out and in stock (a caller that already knows, as
 * `inventory_levels/update` does for its one variant): the live campaigns with an enabled rule
 * giving one of them get the rules touched and a discount sync. Nothing when no live rule gives them.
 *
 * @example
 *   if (isSoldOut(before) !== isSoldOut(after)) await giftStockChanged(uow, [variantId]);
 */
export async function giftStockChanged(uow: ShopUnitOfWork, variantIds: readonly string[]): Promise<void> {
  resync(uow, await liveCampaignsGiving(uow, variantIds));
}

/**
 * Runs `write` (a catalog write of `scope`, in `uow`) between two reads of the stock of the live
 * gifts it can change, then resyncs the campaigns giving one that crossed. A shop without a
 * live gift costs one read of its live rules. Returns what `write` returns.
 *
 * @example
 *   await syncingGiftStock(uow, { productIds: ['gid://shopify/Product/1'], variantIds: [] }, () => upsertCatalog(uow.tx, uow.shop.id, body));
 */
export async function syncingGiftStock<T>(uow: ShopUnitOfWork, scope: StockScope, write: () => Promise<T>): Promise<T> {
  const gifts = await liveGifts(uow);
  if (gifts.size === 0) return write();
  const before = await liveGiftStock(uow.tx, uow.shop.id, scope, gifts);
  const result = await write();
  const after = await liveGiftStock(uow.tx, uow.shop.id, scope, gifts);
  resync(uow, campaignsGiving(gifts, crossed(before, after)));
  return result;
}

/**
 * The scope of a catalog upsert: its products (whose stored variants it replaces) and their variants.
 *
 * @example
 *   const scope = upsertScope(body); // { productIds: [...], variantIds: [...] }
 */
export function upsertScope(upsert: { products: ReadonlyArray<{ id: string; variants: ReadonlyArray<{ id: string }> }> }): StockScope {
  return { productIds: upsert.products.map((p) => p.id), variantIds: upsert.products.flatMap((p) => p.variants.map((v) => v.id)) };
}
