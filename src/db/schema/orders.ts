/** Orders and what they count: redemptions, gift budgets, give-backs, repairs. */
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns.ts';

/** Platform orders; the primary key makes intake idempotent under concurrency. */
export const orders = pgTable(
  'orders',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    customerId: text('customer_id'),
    completedAt: ts('completed_at').notNull(),
    /** The day the order completed, in the shop's timezone at intake. */
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    total: bigint('total', { mode: 'number' }).notNull(),
    giftLines: integer('gift_lines').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** Gift units intake did not grant because a budget was spent: `[{ ruleId, campaignId, quantity }]`; null: none. */
    overBudget: jsonb('over_budget').$type<Array<{ ruleId: string; campaignId: string; quantity: number }>>(),
    /**
     * What intake granted each budgeted rule and to which counters (budgets/charge.ts), so a
     * refund gives back to exactly those: `[{ ruleId, campaignId, units, counters: [{ scope, scopeId, windowStart }] }]`.
     * `[]` when nothing was charged; null on orders recorded before it was kept (give-backs/give-back.ts).
     */
    budgetCharges: jsonb('budget_charges').$type<Array<{ ruleId: string; campaignId: string; units: number; counters: Array<{ scope: 'rule' | 'campaign'; scopeId: string; windowStart: string }> }>>(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('orders_shop_day_idx').on(t.shopId, t.day),
    // A customer's orders (compliance webhooks, docs/compliance.md); guest orders are not indexed.
    index('orders_shop_customer_idx').on(t.shopId, t.customerId).where(sql`customer_id is not null`),
  ],
);

export const redemptions = pgTable(
  'redemptions',
  {
    shopId: text('shop_id').notNull(),
    customerId: text('customer_id').notNull(),
    ruleId: text('rule_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    count: integer('count').notNull(),
    lastRedeemedAt: ts('last_redeemed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.customerId, t.ruleId] })],
);

/**
 * Gift budgets' counters (docs/promotions.md "Budgets"): gift units granted per rule or
 * campaign (`scope`) and window, the window named by its first local date in the shop's
 * timezone (`1970-01-01` for `total`). Moved by order intake and by refunds' give-backs
 * (give-backs/give-back.ts), under row locks taken in key order; `used` never exceeds the
 * budget's maxGifts at the time of the order, and a give-back never takes it below 0.
 */
export const giftBudgetUsage = pgTable(
  'gift_budget_usage',
  {
    // No foreign key, like the other tables intake writes: inserting a counter row would
    // key-share-lock the shop row that writeShop locks FOR UPDATE.
    shopId: text('shop_id').notNull(),
    scope: text('scope').$type<'rule' | 'campaign'>().notNull(),
    scopeId: text('scope_id').notNull(),
    windowStart: date('window_start', { mode: 'string' }).notNull(),
    used: bigint('used', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.scope, t.scopeId, t.windowStart] })],
);

/**
 * What refunds and cancellations gave back (CONTRACT part three "Refunds and repairs";
 * give-backs/give-back.ts): one row per (order, refund id) or (order, `cancel`), written in the
 * transaction of the give-back under the order row's lock, so the same refund delivered twice,
 * or under another webhook id, gives back once. `lines`: gift units given back by campaign and
 * rule; `budgetUnits`: units returned to budget counters. Kept with the order (no pruning).
 */
export const orderGiveBacks = pgTable(
  'order_give_backs',
  {
    shopId: text('shop_id').notNull(),
    orderId: text('order_id').notNull(),
    /** `refund:<refund id>` or `cancel`. */
    ref: text('ref').notNull(),
    lines: jsonb('lines').$type<Array<{ campaignId: string; ruleId: string | null; units: number }>>().notNull(),
    budgetUnits: integer('budget_units').notNull(),
    /** The day of the refund in the shop's timezone: where analytics report it. */
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.orderId, t.ref] })],
);

/**
 * Missing gifts repaired after an express checkout (CONTRACT part three "Refunds and repairs";
 * docs/repairs.md): one row per (order, rule) whose gift the order lacked. The primary key is
 * what makes a repair happen once however often `orders/paid` is delivered. `status` moves
 * `pending` → `editing` (budget, limit and stock taken) → `repaired`, or ends in `failed`,
 * `cancelled` or a `skipped_*` reason (src/repairs/statuses.ts); `quantity` is what the gift adds, `variantId` the gift chosen at planning.
 */
export const orderRepairs = pgTable(
  'order_repairs',
  {
    // No foreign key, like the other tables an order writes: a row would key-share-lock the shop
    // row that writeShop locks FOR UPDATE. shop/redact deletes it with every shop-keyed table.
    shopId: text('shop_id').notNull(),
    orderId: text('order_id').notNull(),
    ruleId: text('rule_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    variantId: text('variant_id').notNull(),
    quantity: integer('quantity').notNull(),
    status: text('status').notNull(),
    /** Why it failed or was skipped, as a person reads it; null otherwise. */
    detail: text('detail'),
    /** The order after the edit (`gid://shopify/Order/…`) once committed. */
    platformOrderId: text('platform_order_id'),
    /** The order line the edit added (its numeric id, as `refund_line_items[].line_item_id` names it) once committed. */
    lineItemId: text('line_item_id'),
    /** Set by a cancellation (or a refund of the gift) that found the job `editing`: the job gives back when it sees it. */
    cancelRequestedAt: ts('cancel_requested_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.orderId, t.ruleId] }), index('order_repairs_shop_created_idx').on(t.shopId, t.createdAt)],
);
