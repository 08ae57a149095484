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

/**
 * The numeric ids, among `variantIds` (gids or numeric ids), of the variants sold out in the shop's catalog.
 *
 * @example
 *   await soldOutVariantIds(tx, shop.id, ['gid://shopify/ProductVariant/7']); // Set { '7' } when 7 is sold out
 */
export async function soldOutVariantIds(db: Queryable, shopId: string, variantIds: Iterable<string>): Promise<Set<string>> {
  const numeric = new Set<string>();
  for (const id of variantIds) numeric.add(numericIdOf(id) ?? id);
  const found = await findVariants(db, shopId, [...numeric]);
  return new Set(found.filter(isSoldOut).map((variant) => numericIdOf(variant.id) ?? variant.id));
}
