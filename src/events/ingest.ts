/**
 * Storing a batch of storefront events (SPEC "POST /events"): events naming a campaign or
 * rule that is not this shop's are dropped, cart tokens are dropped when the shop does not
 * collect them, the rest go in with one multi-row insert, and each `gift_added` becomes a
 * `gift.added` webhook in the same transaction.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Queryable } from '../db/database.ts';
import { rules, storefrontEvents, webhookEndpoints } from '../db/schema.ts';
import { enqueueWebhookEvent } from '../outbox/enqueue.ts';
import { resolveShopSettings } from '../shops/settings.ts';
import type { ShopRecord } from '../shops/store.ts';
import type { StorefrontEventBatch } from './schema.ts';

export type IngestResult = { count: number };

/** Context fields kept in the `context` column; ids with their own columns are not repeated. */
const CONTEXT_FIELDS = ['customerId', 'pageUrl', 'referrer', 'locale', 'currency', 'country', 'market', 'sentAt'] as const;

function contextOf(batch: StorefrontEventBatch): Record<string, unknown> | null {
  const context: Record<string, unknown> = {};
  for (const field of CONTEXT_FIELDS) {
    if (batch[field] !== undefined) context[field] = batch[field];
  }
  return Object.keys(context).length === 0 ? null : context;
}

/** The campaign of each of `ruleIds` that is a rule of this shop: one query for the whole batch. */
async function campaignOfRules(tx: Queryable, shopId: string, ruleIds: string[]): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: rules.id, campaignId: rules.campaignId })
    .from(rules)
    .where(and(eq(rules.shopId, shopId), inArray(rules.id, ruleIds)));
  return new Map(rows.map((row) => [row.id, row.campaignId]));
}

/**
 * Whether the shop has any webhook endpoint at all. Without one, enqueueWebhookEvent would
 * find nobody to deliver to for each gift_added; asking once keeps a batch at a fixed number
 * of queries for shops that have not configured webhooks.
 */
async function hasWebhookEndpoints(tx: Queryable, shopId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.shopId, shopId))
    .limit(1);
  return rows.length > 0;
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
  shop: Pick<ShopRecord, 'id' | 'settings'>,
  batch: StorefrontEventBatch,
  now: Date = new Date(),
): Promise<IngestResult> {
  const collectCartTokens = resolveShopSettings(shop.settings).data.collectCartTokens;
  const context = contextOf(batch);
  return db.transaction(async (tx) => {
    const ruleIds = [...new Set(batch.events.map((event) => event.ruleId))];
    const campaignOf = await campaignOfRules(tx, shop.id, ruleIds);
    // A rule only names a campaign of its own shop, so this one check covers campaign,
    // rule and "rule of that campaign" together.
    const accepted = batch.events.filter((event) => campaignOf.get(event.ruleId) === event.campaignId);
    if (accepted.length === 0) return { count: 0 };

    const rows = accepted.map((event) => ({
      shopId: shop.id,
      type: event.type,
      campaignId: event.campaignId,
      ruleId: event.ruleId,
      variantId: event.variantId,
      cartToken: collectCartTokens ? (event.cartToken ?? batch.cartToken ?? null) : null,
      visitorId: batch.visitorId ?? null,
      sessionId: batch.sessionId ?? null,
      context,
      receivedAt: now,
    }));
    await tx.insert(storefrontEvents).values(rows);

    const giftsAdded = rows.filter((row) => row.type === 'gift_added');
    if (giftsAdded.length > 0 && (await hasWebhookEndpoints(tx, shop.id))) {
      for (const row of giftsAdded) {
        await enqueueWebhookEvent(
          tx,
          shop.id,
          'gift.added',
          {
            campaignId: row.campaignId,
            ruleId: row.ruleId,
            variantId: row.variantId,
            cartToken: row.cartToken,
            visitorId: row.visitorId,
            sessionId: row.sessionId,
            occurredAt: now.toISOString(),
          },
          now,
        );
      }
    }
    return { count: accepted.length };
  });
}
