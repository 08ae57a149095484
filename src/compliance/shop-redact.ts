/**
 * `shop/redact` (CONTRACT part three "Compliance webhooks"; docs/compliance.md): everything of
 * the shop goes. The tables are not listed by hand: every table of the schema with a `shop_id`
 * column is one of the shop's, so a table added later is deleted too (and
 * test/compliance/shop-redact.test.ts fails until its seed gives that table a row).
 */
import { eq, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { platformConnections, shops } from '../db/schema.ts';

const SHOP_COLUMN = 'shop_id';

/**
 * The schema's tables keyed by shop, children before the tables they reference (so each DELETE
 * finds no row pointing at it, whether its foreign key cascades or not); `shops` itself is not
 * among them.
 *
 * @example
 *   shopKeyedTables().map(getTableName); // ['rules', 'experiments', 'campaigns', …]
 */
export function shopKeyedTables(): PgTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const keyed = tables.filter((table) => getTableConfig(table).columns.some((column) => column.name === SHOP_COLUMN));
  const ordered: PgTable[] = [];
  const visit = (table: PgTable, seen: Set<PgTable>) => {
    if (ordered.includes(table) || seen.has(table)) return;
    seen.add(table);
    // Whoever references `table` goes first.
    for (const child of keyed) {
      const references = getTableConfig(child).foreignKeys.some((fk) => fk.reference().foreignTable === table);
      if (child !== table && references) visit(child, seen);
    }
    ordered.push(table);
  };
  for (const table of keyed) visit(table, new Set());
  return ordered;
}

const SHOP_TABLES = shopKeyedTables();

/** Rows a statement touched: node-postgres says `rowCount`, PGlite `affectedRows`. */
function affectedRows(result: unknown): number {
  const counts = result as { rowCount?: number | null; affectedRows?: number };
  return counts.rowCount ?? counts.affectedRows ?? 0;
}

export type ShopRedaction = { outcome: 'deleted'; rows: Record<string, number> } | { outcome: 'gone' } | { outcome: 'connected' };

/**
 * Deletes every row of the shop, the shop row last, in the caller's transaction (a writeShop,
 * which has locked the shop row already; locked again here for any other caller). The shop row
 * is locked first: a concurrent write of the shop (writeShop) or a webhook claim waits, then
 * finds no shop. A shop whose platform connection is live — the app was installed again after
 * the uninstall that the platform's shop/redact follows — is kept (`connected`).
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => redactShop(uow.tx, uow.shop.id)); // { outcome: 'deleted', rows: { campaigns: 3, … } }
 */
export async function redactShop(tx: Tx, shopId: string): Promise<ShopRedaction> {
  const [locked] = await tx.select({ id: shops.id }).from(shops).where(eq(shops.id, shopId)).for('update');
  if (!locked) return { outcome: 'gone' };
  const [connection] = await tx.select({ brokenAt: platformConnections.brokenAt }).from(platformConnections).where(eq(platformConnections.shopId, shopId));
  if (connection && connection.brokenAt === null) return { outcome: 'connected' };
  const rows: Record<string, number> = {};
  for (const table of SHOP_TABLES) {
    const result = await tx.execute(sql`delete from ${table} where ${sql.identifier(SHOP_COLUMN)} = ${shopId}`);
    rows[getTableName(table)] = affectedRows(result);
  }
  await tx.delete(shops).where(eq(shops.id, shopId));
  return { outcome: 'deleted', rows };
}
