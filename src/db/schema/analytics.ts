/** Storefront events and the daily rollups analytics reads. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/** The fields of a `POST /events` batch's shared context an event row keeps (src/events/ingest.ts). */
export const EVENT_CONTEXT_FIELDS = ['customerId', 'pageUrl', 'referrer', 'locale', 'currency', 'country', 'market', 'sentAt'] as const;

/** `storefront_events.context`: the batch's context fields that were given, each a validated string. */
export type StoredEventContext = Partial<Record<(typeof EVENT_CONTEXT_FIELDS)[number], string>>;

/** Raw storefront events (POST /events), pruned after the retention period. */
export const storefrontEvents = pgTable(
  'storefront_events',
  {
    shopId: text('shop_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    campaignId: text('campaign_id').notNull(),
    ruleId: text('rule_id').notNull(),
    variantId: text('variant_id').notNull(),
    cartToken: text('cart_token'),
    visitorId: text('visitor_id'),
    sessionId: text('session_id'),
    context: jsonb('context').$type<StoredEventContext>(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('storefront_events_shop_campaign_idx').on(t.shopId, t.campaignId),
    index('storefront_events_shop_received_idx').on(t.shopId, t.receivedAt),
    // Events of a logged-in customer (compliance webhooks): only rows whose context names one.
    index('storefront_events_shop_customer_idx')
      .on(t.shopId, sql`(${t.context} ->> 'customerId')`)
      .where(sql`${t.context} ? 'customerId'`),
  ],
);

/** Daily rollups in minor units, maintained by the order transaction; analytics read only these. */
export const dailyTotals = pgTable(
  'daily_totals',
  {
    shopId: text('shop_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    totalOrders: integer('total_orders').notNull(),
    totalRevenue: bigint('total_revenue', { mode: 'number' }).notNull(),
    ordersWithGifts: integer('orders_with_gifts').notNull(),
    revenueWithGifts: bigint('revenue_with_gifts', { mode: 'number' }).notNull(),
    /** Orders with gifts that stopped carrying any (cancelled, or every gift line refunded), on the day of that refund. */
    ordersWithGiftsRefunded: integer('orders_with_gifts_refunded').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.day] })],
);

export const dailyCampaignStats = pgTable(
  'daily_campaign_stats',
  {
    shopId: text('shop_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    campaignId: text('campaign_id').notNull(),
    ordersWithGifts: integer('orders_with_gifts').notNull(),
    giftsGiven: integer('gifts_given').notNull(),
    revenueWithGifts: bigint('revenue_with_gifts', { mode: 'number' }).notNull(),
    /** Gift units of the campaign refunded or cancelled, on the day of the refund (the order stays on its own day). */
    giftsRefunded: integer('gifts_refunded').notNull().default(0),
    /** Orders that stopped carrying a gift of the campaign, on the day of that refund. */
    ordersWithGiftsRefunded: integer('orders_with_gifts_refunded').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.day, t.campaignId] })],
);

/**
 * The gift funnel per rule and day (docs/events-orders-analytics.md "Funnel"): storefront events
 * counted in the statement that stores them (on the day they were received), and orders carrying
 * a gift line of the rule counted in the order's intake transaction (on the order's day), so
 * the counts are exact under concurrency and a redelivered order adds nothing.
 */
export const dailyRuleStats = pgTable(
  'daily_rule_stats',
  {
    shopId: text('shop_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ruleId: text('rule_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    choicesShown: integer('choices_shown').notNull().default(0),
    /**
     * The funnel's "shown" step: a `choice_shown` of a `customer_choice` rule, a `gift_added` of
     * an `auto_add` rule (an automatic gift is shown by being added), by the rule's action type
     * when the event was stored.
     */
    offersShown: integer('offers_shown').notNull().default(0),
    choicesSelected: integer('choices_selected').notNull().default(0),
    giftsAdded: integer('gifts_added').notNull().default(0),
    giftsRemoved: integer('gifts_removed').notNull().default(0),
    /** Orders with a gift line of the rule (one per order however many lines), repaired ones included. */
    ordersWithGifts: integer('orders_with_gifts').notNull().default(0),
    /** Orders whose missing gift of the rule a repair added (src/repairs). */
    giftsRepaired: integer('gifts_repaired').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.day, t.ruleId] })],
);
