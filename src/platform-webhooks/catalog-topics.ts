/**
 * The catalog topics (CONTRACT part two "Platform webhooks"): `products/create`,
 * `products/update`, `products/delete` and `inventory_levels/update` keep the shop's catalog
 * mirror current through the catalog store, inside the shop's unit of work. When a variant
 * goes from sold out to in stock or back and a live rule gives it — the one thing of the
 * catalog these topics change that the rules payload shows (rules/gift-stock.ts) — the rules
 * are touched (ETag, cache) and the checkout configuration, built from the same payload, is
 * resynced for the campaigns concerned (catalog/gift-stock-sync.ts, shared with the admin's
 * catalog writes and the install's import). A live gift renamed touches the rules too (the
 * storefront payload names gifts). Any other change touches neither, so the stream
 * of changes a busy shop sends does not re-download its storefronts' rules each time.
 */
import { and, eq, sql } from 'drizzle-orm';
import { giftStockChanged, liveCampaignsGiving, syncingGiftStock, upsertScope } from '../catalog/gift-stock-sync.ts';
import { catalogUpsertBodySchema } from '../catalog/schemas.ts';
import { isSoldOut, shopperTitle } from '../catalog/stock.ts';
import { markProductDeleted, upsertCatalog } from '../catalog/store.ts';
import type { Queryable } from '../db/database.ts';
import { inventoryItems, inventoryLevels, products, variants } from '../db/schema.ts';
import { parseOr400 } from '../http/errors.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import { decimalToMinorUnits } from './decimal.ts';
import type { PlatformProduct } from './payloads.ts';

type Stock = { inventoryQuantity: number; inventoryPolicy: string };

/**
 * After `variantIds` were renamed or repriced: the storefront payload names gifts and shows
 * their prices (`giftTitles`, `giftPrices`), so a live rule's renamed or repriced gift touches
 * the rules; the checkout configuration holds neither, no sync.
 */
async function giftRenamed(uow: ShopUnitOfWork, variantIds: readonly string[]): Promise<void> {
  if ((await liveCampaignsGiving(uow, variantIds)).length > 0) uow.touchRules();
}

/** The name a shopper reads (catalog/stock.ts `shopperTitle`) and the price, by variant gid, of the given product's stored variants. */
async function namesByVariant(tx: Queryable, shopId: string, productId: string): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: variants.id, title: variants.title, productTitle: products.title, price: variants.price })
    .from(variants)
    .innerJoin(products, and(eq(products.shopId, variants.shopId), eq(products.id, variants.productId)))
    .where(and(eq(variants.shopId, shopId), eq(variants.productId, productId)));
  return new Map(rows.map((row) => [row.id, shownAs(shopperTitle(row), row.price)]));
}

/** What the storefront payload shows of a variant, as one comparable string: its name and price. */
const shownAs = (title: string, price: number | null): string => `${price ?? ''} ${title}`;

/**
 * `products/create` and `products/update`: the product and its variants replace the stored
 * ones (catalog store's upsert, as the admin's POST /catalog), and each variant's inventory item
 * is remembered for `inventory_levels/update`. A payload naming a variant twice is a 400.
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => applyProduct(uow, platformProductSchema.parse(payload)));
 */
export async function applyProduct(uow: ShopUnitOfWork, input: PlatformProduct): Promise<void> {
  const { tx, shop } = uow;
  const prices = new Map(input.prices.map(({ variantId, amount }) => [variantId, decimalToMinorUnits(amount, shop.currency) ?? null]));
  const product = { ...input.product, variants: input.product.variants.map((variant) => ({ ...variant, price: prices.get(variant.id) ?? null })) };
  const upsert = parseOr400(catalogUpsertBodySchema, { products: [product] }, 'Invalid product payload');
  const namesBefore = await namesByVariant(tx, shop.id, input.product.id);
  await syncingGiftStock(uow, upsertScope(upsert), async () => {
    await upsertCatalog(tx, shop.id, upsert);
    if (input.inventoryItems.length > 0) {
      await tx
        .insert(inventoryItems)
        .values(input.inventoryItems.map((item) => ({ shopId: shop.id, id: item.inventoryItemId, variantId: item.variantId })))
        .onConflictDoUpdate({ target: [inventoryItems.shopId, inventoryItems.id], set: { variantId: sql`excluded.variant_id` } });
    }
  });
  const renamed = product.variants
    .filter((variant) => namesBefore.get(variant.id) !== shownAs(shopperTitle({ productTitle: input.product.title, title: variant.title }), variant.price))
    .map((variant) => variant.id);
  await giftRenamed(uow, renamed);
}

/**
 * `products/delete`: the product is marked deleted (the health check then says so); an
 * unknown product changes nothing. Its variants keep their stock as the rules payload reads it
 * (catalog/gift-stock-sync.ts), so neither the rules nor the checkout configuration change.
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => applyProductDelete(uow, '632910392'));
 */
export async function applyProductDelete(uow: ShopUnitOfWork, productId: string): Promise<void> {
  await markProductDeleted(uow.tx, uow.shop.id, productId);
}

const clamp = (quantity: number): number => Math.max(-1_000_000_000, Math.min(1_000_000_000, quantity));

/**
 * `inventory_levels/update`: the item's level at one location. The variant's quantity is
 * the platform's total over its locations (what products payloads carry), so a level moves it
 * by the difference from the location's previous level; a location heard of for the first
 * time sets it to the sum of the levels known for the item (exact for a one-location shop,
 * and for any shop once each location has reported — docs/platform-webhooks.md). An item
 * whose variant is unknown is remembered but changes nothing; `available: null` (stock not
 * tracked) is ignored.
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => applyInventoryLevel(uow, { inventoryItemId: '1', locationId: '2', available: 0 }));
 */
export async function applyInventoryLevel(
  uow: ShopUnitOfWork,
  level: { inventoryItemId: string; locationId: string; available: number | null },
): Promise<void> {
  const { tx, shop } = uow;
  if (level.available === null) return;
  const available = clamp(level.available);
  const key = and(
    eq(inventoryLevels.shopId, shop.id),
    eq(inventoryLevels.inventoryItemId, level.inventoryItemId),
    eq(inventoryLevels.locationId, level.locationId),
  );
  const [previous] = await tx.select({ available: inventoryLevels.available }).from(inventoryLevels).where(key);
  await tx
    .insert(inventoryLevels)
    .values({ shopId: shop.id, inventoryItemId: level.inventoryItemId, locationId: level.locationId, available })
    .onConflictDoUpdate({
      target: [inventoryLevels.shopId, inventoryLevels.inventoryItemId, inventoryLevels.locationId],
      set: { available, updatedAt: new Date() },
    });

  const [item] = await tx
    .select({ variantId: inventoryItems.variantId })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.shopId, shop.id), eq(inventoryItems.id, level.inventoryItemId)));
  if (!item) return;
  const [variant] = await tx
    .select({ inventoryQuantity: variants.inventoryQuantity, inventoryPolicy: variants.inventoryPolicy })
    .from(variants)
    .where(and(eq(variants.shopId, shop.id), eq(variants.id, item.variantId)));
  if (!variant) return;

  let quantity: number;
  if (previous) {
    quantity = variant.inventoryQuantity + (available - previous.available);
  } else {
    const levels = await tx
      .select({ available: inventoryLevels.available })
      .from(inventoryLevels)
      .where(and(eq(inventoryLevels.shopId, shop.id), eq(inventoryLevels.inventoryItemId, level.inventoryItemId)));
    quantity = levels.reduce((sum, row) => sum + row.available, 0);
  }
  const next: Stock = { inventoryQuantity: clamp(quantity), inventoryPolicy: variant.inventoryPolicy };
  await tx
    .update(variants)
    .set({ inventoryQuantity: next.inventoryQuantity })
    .where(and(eq(variants.shopId, shop.id), eq(variants.id, item.variantId)));
  if (isSoldOut(variant) !== isSoldOut(next)) await giftStockChanged(uow, [item.variantId]);
}
