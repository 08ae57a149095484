/** The shop-row lock every repair write takes first, so `shop/redact` and a repair never interleave. */
import { eq } from 'drizzle-orm';
import { shops } from '../db/schema.ts';
import type { Tx } from '../db/database.ts';

/** Locks the shop row (KEY SHARE: shop/redact's FOR UPDATE waits, writers of orders do not) and tells whether it still exists. */
export async function shopStillThere(tx: Tx, shopId: string): Promise<boolean> {
  const [row] = await tx.select({ id: shops.id }).from(shops).where(eq(shops.id, shopId)).for('key share');
  return row !== undefined;
}
