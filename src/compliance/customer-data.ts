/**
 * Everything the service holds about one customer of one shop (docs/compliance.md), in one
 * place: what `customers/data_request` exports and what `customers/redact` removes. A customer
 * is the platform's numeric customer id; it reaches the database in these places only:
 *
 * | Where | Export | Redact |
 * |---|---|---|
 * | `redemptions` (per-customer counts) | every row | deleted |
 * | `orders.customer_id`, `orders.payload.customerId` | the customer's orders and `orders_requested` | set to null, line attributes other than the service's `_svc_*` dropped; the order stays (its id keeps intake idempotent) |
 * | `storefront_events.context.customerId` | every event | `customerId` removed, the row's visitor, session and cart token set to null |
 * | `outbox` `redemptions_sync` jobs (`payload.customerId`) | — (a copy of the counts) | deleted |
 * | `outbox` webhooks (`payload.data.customerId`, `order.converted`) | — (a copy of the order) | `customerId` set to null |
 * | `data_requests` | — | deleted |
 *
 * Analytics read only the daily rollups, which hold no customer: their totals do not move.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { dataRequests, orders, outbox, redemptions, storefrontEvents } from '../db/schema.ts';

/**
 * The tables with a `customer_id` column, each handled above; a test fails when a new one is
 * not listed here (test/compliance/customer-data.test.ts).
 */
export const CUSTOMER_KEYED_TABLES: readonly string[] = ['redemptions', 'orders', 'data_requests'];

/** Ids per statement: well under PostgreSQL's 65,535 bind parameters. */
const ID_BATCH = 1000;

type OrderRow = typeof orders.$inferSelect;

/** The customer's orders, plus the orders the platform names (`orders_requested` / `orders_to_redact`), oldest first. */
async function ordersOf(db: Queryable, shopId: string, customerId: string, orderIds: readonly string[]): Promise<OrderRow[]> {
  const found = new Map<string, OrderRow>();
  for (const row of await db.select().from(orders).where(and(eq(orders.shopId, shopId), eq(orders.customerId, customerId)))) found.set(row.id, row);
  for (let start = 0; start < orderIds.length; start += ID_BATCH) {
    const batch = orderIds.slice(start, start + ID_BATCH);
    for (const row of await db.select().from(orders).where(and(eq(orders.shopId, shopId), inArray(orders.id, batch)))) found.set(row.id, row);
  }
  return [...found.values()].sort((a, b) => a.completedAt.getTime() - b.completedAt.getTime() || a.id.localeCompare(b.id));
}

/** Events that name the customer; the `?` test lets the partial index serve the lookup. */
const eventsOf = (shopId: string, customerId: string): SQL =>
  sql`${storefrontEvents.shopId} = ${shopId} and ${storefrontEvents.context} ? 'customerId' and ${storefrontEvents.context} ->> 'customerId' = ${customerId}`;

export type CustomerExport = {
  customer: { id: string };
  shop: { id: string; domain: string };
  generatedAt: string;
  redemptions: Array<{ ruleId: string; campaignId: string; count: number; lastRedeemedAt: string }>;
  orders: Array<{ id: string; customerId: string | null; completedAt: string; currency: string; total: number; giftLines: number; lines: unknown }>;
  storefrontEvents: Array<{ type: string; campaignId: string; ruleId: string; variantId: string; visitorId: string | null; sessionId: string | null; cartToken: string | null; context: unknown; receivedAt: string }>;
};

/**
 * Gathers what the shop holds about `customerId` (and the orders `orderIds` names) into one
 * JSON-ready object.
 *
 * @example
 *   const data = await exportCustomer(tx, shop, '207119551', ['450789469']); // data.redemptions, data.orders, …
 */
export async function exportCustomer(
  db: Queryable,
  shop: { id: string; domain: string },
  customerId: string,
  orderIds: readonly string[],
  now: Date,
): Promise<CustomerExport> {
  const counts = await db
    .select()
    .from(redemptions)
    .where(and(eq(redemptions.shopId, shop.id), eq(redemptions.customerId, customerId)))
    .orderBy(redemptions.ruleId);
  const orderRows = await ordersOf(db, shop.id, customerId, orderIds);
  const events = await db.select().from(storefrontEvents).where(eventsOf(shop.id, customerId)).orderBy(storefrontEvents.id);
  return {
    customer: { id: customerId },
    shop: { id: shop.id, domain: shop.domain },
    generatedAt: now.toISOString(),
    redemptions: counts.map((row) => ({ ruleId: row.ruleId, campaignId: row.campaignId, count: row.count, lastRedeemedAt: row.lastRedeemedAt.toISOString() })),
    orders: orderRows.map((row) => ({
      id: row.id,
      customerId: row.customerId,
      completedAt: row.completedAt.toISOString(),
      currency: row.currency,
      total: row.total,
      giftLines: row.giftLines,
      lines: row.payload.lines ?? [],
    })),
    storefrontEvents: events.map((row) => ({
      type: row.type,
      campaignId: row.campaignId,
      ruleId: row.ruleId,
      variantId: row.variantId,
      visitorId: row.visitorId,
      sessionId: row.sessionId,
      cartToken: row.cartToken,
      context: row.context,
      receivedAt: row.receivedAt.toISOString(),
    })),
  };
}

/** An order line's attributes without the shopper's own (engraving, gift note …): the service's `_svc_*` stay. */
function withoutShopperAttributes(lines: unknown): unknown {
  if (!Array.isArray(lines)) return lines;
  return lines.map((line: unknown) => {
    if (line === null || typeof line !== 'object' || !('attributes' in line)) return line;
    const attributes = (line as { attributes?: unknown }).attributes;
    if (attributes === null || typeof attributes !== 'object') return line;
    const kept = Object.fromEntries(Object.entries(attributes).filter(([name]) => name.startsWith('_svc_')));
    return { ...line, attributes: kept };
  });
}

export type RedactionCounts = { redemptions: number; orders: number; storefrontEvents: number; outbox: number; dataRequests: number };

/**
 * Removes `customerId` from everything the shop holds (module comment), in the caller's
 * transaction; returns how many rows each place had. Running it again changes nothing.
 *
 * @example
 *   await writeShopUnlocked(ctx, shop, (uow) => redactCustomer(uow.tx, uow.shop.id, '207119551', ['450789469']));
 */
export async function redactCustomer(tx: Queryable, shopId: string, customerId: string, orderIds: readonly string[]): Promise<RedactionCounts> {
  const counts = await tx
    .delete(redemptions)
    .where(and(eq(redemptions.shopId, shopId), eq(redemptions.customerId, customerId)))
    .returning({ ruleId: redemptions.ruleId });

  const named = await ordersOf(tx, shopId, customerId, orderIds);
  for (const order of named) {
    const payload = { ...order.payload, customerId: null, lines: withoutShopperAttributes(order.payload.lines) };
    await tx.update(orders).set({ customerId: null, payload }).where(and(eq(orders.shopId, shopId), eq(orders.id, order.id)));
  }

  const events = await tx
    .update(storefrontEvents)
    .set({ context: sql`${storefrontEvents.context} - 'customerId'`, visitorId: null, sessionId: null, cartToken: null })
    .where(eventsOf(shopId, customerId))
    .returning({ id: storefrontEvents.id });

  const jobs = await tx
    .delete(outbox)
    .where(and(eq(outbox.shopId, shopId), eq(outbox.kind, 'redemptions_sync'), sql`${outbox.payload} ->> 'customerId' = ${customerId}`))
    .returning({ id: outbox.id });
  const webhooks = await tx
    .update(outbox)
    .set({ payload: sql`jsonb_set(${outbox.payload}, '{data,customerId}', 'null'::jsonb)` })
    .where(and(eq(outbox.shopId, shopId), eq(outbox.kind, 'webhook'), sql`${outbox.payload} -> 'data' ->> 'customerId' = ${customerId}`))
    .returning({ id: outbox.id });

  const requests = await tx
    .delete(dataRequests)
    .where(and(eq(dataRequests.shopId, shopId), eq(dataRequests.customerId, customerId)))
    .returning({ id: dataRequests.id });

  return {
    redemptions: counts.length,
    orders: named.length,
    storefrontEvents: events.length,
    outbox: jobs.length + webhooks.length,
    dataRequests: requests.length,
  };
}
