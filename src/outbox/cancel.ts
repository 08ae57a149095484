/**
 * Cancelling an endpoint's pending deliveries: when the endpoint is deleted (webhooks/store.ts)
 * or its receiver answers 410 Gone (record-outcome.ts).
 */
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { outbox } from '../db/schema.ts';

/** Cancels the endpoint's pending deliveries, noting why in `last_error`. */
export async function cancelPendingDeliveries(tx: Queryable, shopId: string, endpointId: string, reason: string): Promise<void> {
  await tx
    .update(outbox)
    .set({ status: 'cancelled', lastError: reason, updatedAt: new Date() })
    .where(and(eq(outbox.shopId, shopId), eq(outbox.endpointId, endpointId), eq(outbox.status, 'pending')));
}
