/**
 * Webhook endpoints and their delivery log. Every function takes the shop id first; an
 * endpoint of another shop is simply not found.
 */
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { outbox, outboxAttempts, webhookEndpoints } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import type { WriteShopDeps } from '../shops/unit-of-work.ts';
import { cancelPendingDeliveries } from '../outbox/cancel.ts';
import { newWebhookSecret } from './sign.ts';
import { bytewise } from '../db/collation.ts';

export type EndpointRecord = {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  disabledAt: Date | null;
};

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  createdAt: webhookEndpoints.createdAt,
  disabledAt: webhookEndpoints.disabledAt,
};

export async function countEndpoints(db: Queryable, shopId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.shopId, shopId));
  return row?.n ?? 0;
}

/**
 * Creates an endpoint with a fresh `whsec_` secret; the secret is returned here only.
 *
 * @example
 *   const { endpoint, secret } = await createEndpoint(db, shop.id, { url: 'https://example.com/hooks', events: [] });
 */
export async function createEndpoint(
  db: Queryable,
  shopId: string,
  input: { url: string; events: string[] },
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ shopId, id: newId('whe'), url: input.url, events: input.events, secret })
    .returning(endpointColumns);
  if (!row) throw new Error('insert returned no row');
  return { endpoint: row, secret };
}

/**
 * Creates an endpoint unless the shop already has `max`; the count and the insert run in one
 * unit of work of the shop, so concurrent creates queue on the shop row and never exceed the
 * cap. A full shop is an expected outcome, returned as a value.
 *
 * @example
 *   const created = await createEndpointWithinCap(ctx, shop.id, body, MAX_ENDPOINTS_PER_SHOP);
 *   if (!created.ok) throw conflict('Too many webhook endpoints');
 */
export async function createEndpointWithinCap(
  deps: WriteShopDeps,
  shopId: string,
  input: { url: string; events: string[] },
  max: number,
): Promise<{ ok: true; endpoint: EndpointRecord; secret: string } | { ok: false; reason: 'cap_reached' }> {
  return writeShop(deps, shopId, async (uow) => {
    if ((await countEndpoints(uow.tx, uow.shop.id)) >= max) return { ok: false, reason: 'cap_reached' } as const;
    return { ok: true, ...(await createEndpoint(uow.tx, uow.shop.id, input)) } as const;
  });
}

export async function listEndpoints(db: Queryable, shopId: string): Promise<EndpointRecord[]> {
  return db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.shopId, shopId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(bytewise(webhookEndpoints.id)));
}

/**
 * Removes an endpoint and cancels its pending deliveries (the log keeps them). Returns
 * false when the shop has no such endpoint.
 */
export async function deleteEndpoint(tx: Queryable, shopId: string, endpointId: string): Promise<boolean> {
  const deleted = await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.shopId, shopId), eq(webhookEndpoints.id, endpointId)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) return false;
  await cancelPendingDeliveries(tx, shopId, endpointId, 'Endpoint deleted');
  return true;
}

export type DeliveryRecord = {
  id: string;
  endpointId: string | null;
  messageId: string | null;
  type: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  attemptLog: Array<{ attempt: number; statusCode: number | null; error: string | null; durationMs: number; attemptedAt: Date }>;
};

/**
 * The shop's webhook deliveries, newest first, each with its attempt log.
 *
 * @example
 *   const failed = await listDeliveries(db, shop.id, { status: 'failed', limit: 20 });
 */
export async function listDeliveries(
  db: Queryable,
  shopId: string,
  query: { status?: string | undefined; limit: number },
): Promise<DeliveryRecord[]> {
  const rows = await db
    .select({
      id: outbox.id,
      endpointId: outbox.endpointId,
      messageId: outbox.messageId,
      type: outbox.eventType,
      status: outbox.status,
      attempts: outbox.attempts,
      lastStatusCode: outbox.lastStatusCode,
      lastError: outbox.lastError,
      nextAttemptAt: outbox.nextAttemptAt,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .where(
      and(
        eq(outbox.shopId, shopId),
        eq(outbox.kind, 'webhook'),
        query.status === undefined ? undefined : eq(outbox.status, query.status),
      ),
    )
    .orderBy(desc(outbox.createdAt), desc(bytewise(outbox.id)))
    .limit(query.limit);
  if (rows.length === 0) return [];
  const attempts = await db
    .select()
    .from(outboxAttempts)
    .where(and(eq(outboxAttempts.shopId, shopId), inArray(outboxAttempts.outboxId, rows.map((r) => r.id))))
    .orderBy(asc(outboxAttempts.attempt));
  const byRow = new Map<string, DeliveryRecord['attemptLog']>();
  for (const a of attempts) {
    const log = byRow.get(a.outboxId) ?? [];
    log.push({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, attemptedAt: a.attemptedAt });
    byRow.set(a.outboxId, log);
  }
  return rows.map((row) => ({ ...row, attemptLog: byRow.get(row.id) ?? [] }));
}
