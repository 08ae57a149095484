/**
 * Gift stock (issue 11 part 5): when the platform will not sell a variant. A variant is sold
 * out when the catalog has it with policy `DENY` and no stock (`inventoryQuantity <= 0`);
 * `CONTINUE` sells past zero, and a variant the catalog has never heard of is taken as in
 * stock (the catalog is a mirror that may be incomplete, and an unknown gift was always given).
 */
import { numericIdOf } from '@gcrs/engine';
import type { Queryable } from '../db/database.ts';
import { findVariants } from './store.ts';

/**
 * Whether the platform refuses to sell this variant now.
 *
 * @example
 *   isSoldOut({ inventoryQuantity: 0, inventoryPolicy: 'DENY' }); // true
 *   isSoldOut({ inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' }); // false
 */
export function isSoldOut(variant: { inventoryQuantity: number; inventoryPolicy: string }): boolean {
  return variant.inventoryPolicy === 'DENY' && variant.inventoryQuantity <= 0;
}

/** What the rules payload needs to know of its gift variants: which are sold out, their names and prices. */
export type GiftVariantFacts = {
  /** Numeric ids of the variants sold out in the catalog. */
  soldOut: Set<string>;
  /** Numeric id → the name a shopper reads ("Enamel Mug", or "Enamel Mug - Blue" for a real variant). */
  titles: Map<string, string>;
  /** Numeric id → the variant's price in minor units of the shop's currency, for those the catalog has one of. */
  prices: Map<string, number>;
};

/**
 * The name a shopper reads for a variant: the product's title, with the variant's own title
 * when the product has real variants (the platform names the only variant "Default Title").
 *
 * @example
 *   shopperTitle({ productTitle: 'Enamel Mug', title: 'Default Title' }); // 'Enamel Mug'
 *   shopperTitle({ productTitle: 'Enamel Mug', title: 'Blue' }); // 'Enamel Mug - Blue'
 */
export function shopperTitle(variant: { productTitle: string; title: string }): string {
  const own = variant.title.trim();
  return own === '' || own === 'Default Title' ? variant.productTitle : `${variant.productTitle} - ${own}`;
}

/**
 * One read of the catalog for `variantIds` (gids or numeric ids): which are sold out, what
 * they are called and cost. A variant the catalog does not know is none (in stock, no name, no price).
 *
 * @example
 *   const { soldOut, titles, prices } = await giftVariantFacts(tx, shop.id, ['gid://shopify/ProductVariant/7']);
 */
export async function giftVariantFacts(db: Queryable, shopId: string, variantIds: Iterable<string>): Promise<GiftVariantFacts> {
  const numeric = new Set<string>();
  for (const id of variantIds) numeric.add(numericIdOf(id) ?? id);
  const found = numeric.size === 0 ? [] : await findVariants(db, shopId, [...numeric]);
  const soldOut = new Set<string>();
  const titles = new Map<string, string>();
  const prices = new Map<string, number>();
  for (const variant of found) {
    const key = numericIdOf(variant.id) ?? variant.id;
    if (isSoldOut(variant)) soldOut.add(key);
    titles.set(key, shopperTitle(variant));
    if (variant.price !== null) prices.set(key, variant.price);
  }
  return { soldOut, titles, prices };
}

/**
 * The numeric ids, among `variantIds` (gids or numeric ids), of the variants sold out in the shop's catalog.
 *
 * @example
 *   await soldOutVariantIds(tx, shop.id, ['gid://shopify/ProductVariant/7']); // Set { '7' } when 7 is sold out
 */
export async function soldOutVariantIds(db: Queryable, shopId: string, variantIds: Iterable<string>): Promise<Set<string>> {
  return (await giftVariantFacts(db, shopId, variantIds)).soldOut;
}
