/** Outbox rows in any state and age, with their attempt log, written straight to the tables. */
import type { Database } from '../../src/db/database.ts';
import { outbox, outboxAttempts } from '../../src/db/schema.ts';
import { newId } from '../../src/ids.ts';

export type SeedRow = { status: 'pending' | 'delivered' | 'failed' | 'cancelled'; ageMs: number; attempts?: number };

const DAY_MS = 86_400_000;
export const days = (n: number) => n * DAY_MS;

/**
 * Inserts `count` rows like `row` for the shop's endpoint; returns their ids. A row's
 * `updated_at` (when it finished) and `created_at` are `ageMs` before `now`.
 */
export async function seedOutbox(db: Database, shopId: string, endpointId: string, row: SeedRow, count = 1, now = new Date()): Promise<string[]> {
  const at = new Date(now.getTime() - row.ageMs);
  const attempts = row.attempts ?? (row.status === 'pending' ? 0 : 1);
  const rows = Array.from({ length: count }, () => ({
    shopId,
    id: newId('obx'),
    kind: 'webhook',
    endpointId,
    messageId: newId('msg'),
    eventType: 'gift.added',
    payload: { type: 'gift.added', timestamp: at.toISOString(), data: { shopId } },
    status: row.status,
    attempts,
    nextAttemptAt: at,
    lastStatusCode: row.status === 'delivered' ? 200 : null,
    createdAt: at,
    updatedAt: at,
  }));
  for (let start = 0; start < rows.length; start += 500) {
    const slice = rows.slice(start, start + 500);
    await db.insert(outbox).values(slice);
    const log = slice.flatMap((r) =>
      Array.from({ length: attempts }, (_, i) => ({
        shopId,
        outboxId: r.id,
        attempt: i + 1,
        statusCode: i + 1 === attempts && row.status === 'delivered' ? 200 : 500,
        error: null,
        durationMs: 12,
        attemptedAt: at,
      })),
    );
    if (log.length > 0) await db.insert(outboxAttempts).values(log);
  }
  return rows.map((r) => r.id);
}
