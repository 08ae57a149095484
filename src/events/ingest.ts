/**
 * Storing a batch of storefront events (SPEC "POST /events"): events naming a campaign or
 * rule that is not this shop's are dropped, cart tokens are dropped when the shop does not
 * collect them, the rest go in with one multi-row INSERT … SELECT that also counts them in the
 * funnel rollup (analytics/funnel.ts), and each `gift_added` becomes a `gift.added` webhook in
 * the same transaction.
 */
import { sql } from 'drizzle-orm';
import { localDateOf } from '../analytics/calendar.ts';
import { countEventsFrom } from '../analytics/funnel.ts';
import type { Database, Queryable } from '../db/database.ts';
import { EVENT_CONTEXT_FIELDS, rules, storefrontEvents } from '../db/schema.ts';
import type { StoredEventContext } from '../db/schema.ts';
import { writeOutbox } from '../outbox/enqueue.ts';
import { resolveShopSettings } from '../shops/settings.ts';
import type { ShopRecord } from '../shops/store.ts';
import type { StorefrontEventBatch } from './schema.ts';

export type IngestResult = { count: number };

/** The batch's context kept in the `context` column; ids with their own columns are not repeated. */
function contextOf(batch: StorefrontEventBatch): StoredEventContext | null {
  const context: StoredEventContext = {};
  for (const field of EVENT_CONTEXT_FIELDS) {
    if (batch[field] !== undefined) context[field] = batch[field];
  }
  return Object.keys(context).length === 0 ? null : context;
}

type AcceptedEvent = { type: string; campaign_id: string; rule_id: string; variant_id: string; cart_token: string | null };

/**
 * Inserts the events whose rule is this shop's and belongs to the campaign they name, in one
 * statement: the batch travels as a VALUES list joined to `rules` (a rule only names a
 * campaign of its own shop, so the join checks campaign, rule and "rule of that campaign" at
 * once). One round trip instead of a lookup plus an insert; returns the rows stored.
 */
async function insertAccepted(
  db: Queryable,
  shopId: string,
  batch: StorefrontEventBatch,
  options: { collectCartTokens: boolean; now: Date; timezone: string },
): Promise<AcceptedEvent[]> {
  const incoming = sql.join(
    batch.events.map((event, position) => {
      const cartToken = options.collectCartTokens ? (event.cartToken ?? batch.cartToken ?? null) : null;
      return sql`(${position}::int, ${event.type}, ${event.campaignId}, ${event.ruleId}, ${event.variantId}, ${cartToken}::text)`;
    }),
    sql`, `,
  );
  const context = contextOf(batch);
  const result = await db.execute(sql`
    WITH incoming (position, type, campaign_id, rule_id, variant_id, cart_token) AS (VALUES ${incoming}),
    inserted AS (
    INSERT INTO ${storefrontEvents}
           (shop_id, type, campaign_id, rule_id, variant_id, cart_token, visitor_id, session_id, context, received_at)
    SELECT ${shopId}, i.type, i.campaign_id, i.rule_id, i.variant_id, i.cart_token,
           ${batch.visitorId ?? null}::text, ${batch.sessionId ?? null}::text,
           ${context === null ? null : JSON.stringify(context)}::jsonb, ${options.now.toISOString()}::timestamptz
      FROM incoming i
      JOIN ${rules} r ON r.shop_id = ${shopId} AND r.id = i.rule_id AND r.campaign_id = i.campaign_id
     ORDER BY i.position
    RETURNING type, campaign_id, rule_id, variant_id, cart_token),
    counted AS (${countEventsFrom('inserted', shopId, localDateOf(options.now, options.timezone))})
    SELECT type, campaign_id, rule_id, variant_id, cart_token FROM inserted`);
  return (result as unknown as { rows: AcceptedEvent[] }).rows;
}

/**
 * Validates ownership and stores the batch in one transaction; returns how many events were
 * accepted. `now` is the received time of every event of the batch.
 *
 * @example
 *   const { count } = await ingestEvents(ctx.db, shop, { events: [{ type: 'gift_added', campaignId, ruleId, variantId }] });
 */
export async function ingestEvents(
  db: Database,
  shop: Pick<ShopRecord, 'id' | 'settings' | 'timezone'>,
  batch: StorefrontEventBatch,
  now: Date = new Date(),
): Promise<IngestResult> {
  const options = { collectCartTokens: resolveShopSettings(shop.settings).data.collectCartTokens, now, timezone: shop.timezone };
  // Without a gift_added in the batch nothing else is written: the insert is atomic alone.
  if (!batch.events.some((event) => event.type === 'gift_added')) {
    return { count: (await insertAccepted(db, shop.id, batch, options)).length };
  }
  return db.transaction(async (tx) => {
    const accepted = await insertAccepted(tx, shop.id, batch, options);
    const giftsAdded = accepted.filter((row) => row.type === 'gift_added');
    // One endpoint lookup and batched inserts for the whole batch, none when nobody subscribes.
    await writeOutbox(
      tx,
      shop.id,
      giftsAdded.map((row) => ({
        kind: 'webhook',
        type: 'gift.added',
        data: {
          campaignId: row.campaign_id,
          ruleId: row.rule_id,
          variantId: row.variant_id,
          cartToken: row.cart_token,
          visitorId: batch.visitorId ?? null,
          sessionId: batch.sessionId ?? null,
          occurredAt: now.toISOString(),
        },
      })),
      now,
    );
    return { count: accepted.length };
  });
}
