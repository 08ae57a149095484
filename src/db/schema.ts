/**
 * The one Drizzle schema. Every table is keyed by shop first: the shop id leads each primary
 * key and index, and every query filters by it, so one shop's rows can never answer another's.
 * Change it, then run `npm run db:generate` to write the next migration.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const shops = pgTable(
  'shops',
  {
    id: text('id').primaryKey(),
    domain: text('domain').notNull(),
    /** The shop's name as the platform gives it (read at install); null for a shop the operator created. */
    name: text('name'),
    plan: text('plan').notNull(),
    currency: text('currency').notNull(),
    timezone: text('timezone').notNull(),
    /** Per-shop overrides of the plan caps: { campaigns?, rules?, activeCampaigns? }. */
    limits: jsonb('limits').$type<Record<string, number>>().notNull().default({}),
    /** Partial shopSettings plus lowStockThreshold, as the admin last set them. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** Bumped inside every transaction that changes what GET /rules returns (its ETag). */
    rulesVersion: bigint('rules_version', { mode: 'number' }).notNull().default(1),
    widgets: jsonb('widgets').$type<Record<string, unknown>>(),
    widgetsVersion: integer('widgets_version').notNull().default(0),
    /** The first request of the storefront script through the app proxy: the app embed is on (docs/merchant-admin.md "Getting started"). */
    storefrontSeenAt: ts('storefront_seen_at'),
    /** When the merchant dismissed the getting-started checklist; null: shown until every step is done. */
    onboardingDismissedAt: ts('onboarding_dismissed_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  // Not shop-first by nature: the platform's order webhook names its shop by domain.
  (t) => [uniqueIndex('shops_domain_key').on(t.domain)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    /** The visible start of the key, safe to show and to log. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    uniqueIndex('api_keys_shop_hash_key').on(t.shopId, t.keyHash),
  ],
);

/**
 * Publishable storefront tokens (CONTRACT "Storefront", 2.): `spk_<shop id body>_<32 base62>`,
 * stored as the SHA-256 of the whole token plus its visible start, like API keys. A token
 * opens only the storefront routes, from the origins listed.
 */
export const storefrontTokens = pgTable(
  'storefront_tokens',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** Origins (`scheme://host[:port]`, lowercase, no path) whose pages may use the token. */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull(),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    uniqueIndex('storefront_tokens_shop_hash_key').on(t.shopId, t.tokenHash),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    isDraft: boolean('is_draft').notNull(),
    startAt: ts('start_at'),
    endAt: ts('end_at'),
    /** The campaign's gift budget `{ maxGifts, window }` (docs/promotions.md "Budgets"); null: none. */
    budget: jsonb('budget').$type<{ maxGifts: number; window: 'day' | 'week' | 'month' | 'total' }>(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('campaigns_shop_created_idx').on(t.shopId, t.createdAt, t.id),
  ],
);

export const rules = pgTable(
  'rules',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    campaignId: text('campaign_id').notNull(),
    /** Order of the rule inside its campaign, as last sent. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    /**
     * The condition tree as JSON text, not jsonb: nesting depth is unbounded (SPEC), and
     * PostgreSQL's JSON parser stops at its stack depth limit long before our iterative one.
     */
    conditionTree: text('condition_tree').notNull(),
    giftConfig: jsonb('gift_config').$type<Record<string, unknown>>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('rules_shop_campaign_idx').on(t.shopId, t.campaignId, t.position),
    foreignKey({ columns: [t.shopId, t.campaignId], foreignColumns: [campaigns.shopId, campaigns.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const experiments = pgTable(
  'experiments',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    campaignId: text('campaign_id').notNull(),
    status: text('status').notNull(),
    primaryMetric: text('primary_metric').notNull(),
    /** [{ id, name, ruleId, weight }] */
    variants: jsonb('variants').$type<Array<{ id: string; name: string; ruleId: string; weight: number }>>().notNull(),
    winnerVariantId: text('winner_variant_id'),
    startedAt: ts('started_at').notNull().defaultNow(),
    stoppedAt: ts('stopped_at'),
    concludedAt: ts('concluded_at'),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('experiments_shop_campaign_idx').on(t.shopId, t.campaignId),
    foreignKey({ columns: [t.shopId, t.campaignId], foreignColumns: [campaigns.shopId, campaigns.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const products = pgTable(
  'products',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    title: text('title').notNull(),
    status: text('status').notNull(),
    deleted: boolean('deleted').notNull().default(false),
    /** The product's featured image (the platform's CDN URL), for the admin's gift picker; null when it has none. */
    imageUrl: text('image_url'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

export const variants = pgTable(
  'variants',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    productId: text('product_id').notNull(),
    title: text('title').notNull(),
    inventoryQuantity: integer('inventory_quantity').notNull(),
    inventoryPolicy: text('inventory_policy').notNull(),
    /** Minor units of the shop's currency; null when the source did not say. */
    price: bigint('price', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('variants_shop_product_idx').on(t.shopId, t.productId),
    foreignKey({ columns: [t.shopId, t.productId], foreignColumns: [products.shopId, products.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const collections = pgTable(
  'collections',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    handle: text('handle').notNull(),
    productIds: jsonb('product_ids').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] }), uniqueIndex('collections_shop_handle_key').on(t.shopId, t.handle)],
);

/**
 * The platform's inventory items (CONTRACT part two "Platform webhooks"): `inventory_levels/update`
 * names an inventory item, not a variant; products webhooks say which variant each item is.
 */
export const inventoryItems = pgTable(
  'inventory_items',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    /** The platform's numeric inventory item id, as digits (it may exceed 2^53). */
    id: text('id').notNull(),
    /** The variant gid (variants.id) the item belongs to. */
    variantId: text('variant_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

/** The last `available` the platform reported for an inventory item at one location. */
export const inventoryLevels = pgTable(
  'inventory_levels',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    inventoryItemId: text('inventory_item_id').notNull(),
    locationId: text('location_id').notNull(),
    available: integer('available').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.inventoryItemId, t.locationId] })],
);

/**
 * Platform webhook deliveries already processed, by `X-Shopify-Webhook-Id`: written in the
 * transaction of the delivery's effect, so a redelivery (or two at once) has its effect once.
 * Pruned after PLATFORM_WEBHOOK_RETENTION_DAYS (the platform retries for 48 hours).
 */
export const platformWebhookDeliveries = pgTable(
  'platform_webhook_deliveries',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull(),
    topic: text('topic').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.webhookId] }),
    index('platform_webhook_deliveries_received_idx').on(t.receivedAt),
  ],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    url: text('url').notNull(),
    /** Event kinds delivered; empty means every kind. */
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    /** Set when the receiver answered 410 Gone: nothing more is sent to it. */
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

/**
 * Side effects promised by a committed change: written in the change's own transaction and
 * claimed by dispatchers with FOR UPDATE SKIP LOCKED, so a crash loses none and two instances
 * never send the same attempt. `kind` is 'webhook' (one row per endpoint) or 'discount_sync'.
 */
export const outbox = pgTable(
  'outbox',
  {
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    /** For webhooks: the endpoint, and the message id sent as `webhook-id` on every attempt. */
    endpointId: text('endpoint_id'),
    messageId: text('message_id'),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** pending → delivered | failed | cancelled */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    // The two cross-shop reads, each on a partial index that holds only the rows it serves.
    // Dispatchers claim whatever is due, whichever shop it is for: only pending rows, so a
    // claim never walks delivered history however long it grows.
    index('outbox_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    // Retention prunes finished rows oldest first (updated_at is when they finished).
    index('outbox_finished_idx').on(t.updatedAt).where(sql`status <> 'pending'`),
    index('outbox_shop_created_idx').on(t.shopId, t.createdAt),
  ],
);

/** One row per delivery attempt: the webhook delivery log. */
export const outboxAttempts = pgTable(
  'outbox_attempts',
  {
    shopId: text('shop_id').notNull(),
    outboxId: text('outbox_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: ts('attempted_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.outboxId, t.attempt] }),
    foreignKey({ columns: [t.shopId, t.outboxId], foreignColumns: [outbox.shopId, outbox.id] }).onDelete('cascade'),
  ],
);

/** Desired state of each campaign's automatic discount on the platform, as the sync port last recorded it. */
export const discountSyncs = pgTable(
  'discount_syncs',
  {
    shopId: text('shop_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    active: boolean('active').notNull(),
    syncedAt: ts('synced_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.campaignId] })],
);

/**
 * The shop's checkout function configuration as the discount_sync job last wrote it
 * (docs/checkout-function.md "How the sync writes it"): to the platform's discount metafields
 * (`target` 'platform', with the discount's id) or, for a shop without a platform connection,
 * only here ('recorded': what the metafields would hold). One row per shop.
 */
export const checkoutConfigs = pgTable('checkout_configs', {
  shopId: text('shop_id').primaryKey().references(() => shops.id, { onDelete: 'cascade' }),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  variables: jsonb('variables').$type<Record<string, unknown>>().notNull(),
  /** Both metafields' JSON in UTF-8 bytes, against the platform's 10,000. */
  bytes: integer('bytes').notNull(),
  target: text('target').notNull(),
  platformDiscountId: text('platform_discount_id'),
  writtenAt: ts('written_at').notNull(),
  /** The last failed write to the platform since `writtenAt` (cleared by the next success). */
  lastError: text('last_error'),
  lastErrorAt: ts('last_error_at'),
});

/**
 * A shop's offline Admin API access token (docs/checkout-function.md "Platform connection"),
 * sealed with AES-256-GCM under a key derived from PLATFORM_APP_SECRET: a dump of the database
 * alone does not give the token away. `brokenAt` is set when the platform answered 401.
 */
export const platformConnections = pgTable('platform_connections', {
  shopId: text('shop_id').primaryKey().references(() => shops.id, { onDelete: 'cascade' }),
  sealedToken: text('sealed_token').notNull(),
  connectedAt: ts('connected_at').notNull().defaultNow(),
  brokenAt: ts('broken_at'),
  brokenReason: text('broken_reason'),
});

/**
 * The platform's app subscriptions of a shop (docs/billing.md): created `PENDING` by
 * POST …/billing/subscription, then moved by `app_subscriptions/update`. `status_at` is the
 * platform's `updated_at` of the status stored (an older delivery changes nothing);
 * `plan_set_at` the `updated_at` at which this subscription last set the shop's plan. At most
 * one row of a shop is `current`: the subscription the shop's paid plan comes from. The id is
 * the platform's gid, global: one shop's subscription id can never be claimed by another.
 */
export const appSubscriptions = pgTable(
  'app_subscriptions',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** The plan its name names; null when the name is no plan's. */
    plan: text('plan'),
    status: text('status').notNull(),
    statusAt: ts('status_at'),
    current: boolean('current').notNull().default(false),
    planSetAt: ts('plan_set_at'),
    test: boolean('test').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    uniqueIndex('app_subscriptions_id_idx').on(t.id),
    uniqueIndex('app_subscriptions_current_idx').on(t.shopId).where(sql`${t.current}`),
  ],
);

/**
 * The shop's catalog import from the platform (docs/install.md "The jobs"): one row per shop,
 * replaced by each install. `cursor` is the Admin API's `endCursor` of the last page stored, written
 * in the transaction of that page's rows, so an import stopped by a crash resumes after it.
 */
export const catalogImports = pgTable('catalog_imports', {
  shopId: text('shop_id').primaryKey().references(() => shops.id, { onDelete: 'cascade' }),
  /** `imp_…`: names this run's outbox jobs, so a job of an older run cannot move this one. */
  id: text('id').notNull(),
  /** running → done (an import that used up its outbox attempts stays running, with its last error) */
  status: text('status').notNull(),
  cursor: text('cursor'),
  pages: integer('pages').notNull().default(0),
  products: integer('products').notNull().default(0),
  variants: integer('variants').notNull().default(0),
  startedAt: ts('started_at').notNull(),
  finishedAt: ts('finished_at'),
  lastError: text('last_error'),
});

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
    context: jsonb('context').$type<Record<string, unknown>>(),
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
 * One-time login links of the merchant admin (CONTRACT "Merchant admin"; docs/merchant-admin.md):
 * `gcl_<shop id body>_<32 base62>`, stored as the SHA-256 of the whole token. Valid 15 minutes,
 * usable once: consuming is one UPDATE that sets `used_at` only where it is still null.
 */
export const adminLoginLinks = pgTable(
  'admin_login_links',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.tokenHash] })],
);

/**
 * Cookie sessions of the merchant admin: `gcs_<shop id body>_<32 base62>` in the cookie, only
 * its SHA-256 here. A session ends at `expires_at` (absolute), after 12 h without use
 * (`last_seen_at`, refreshed at most once a minute), or at logout (`revoked_at`).
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.tokenHash] })],
);

/**
 * `customers/data_request` deliveries (docs/compliance.md): what the service held about the
 * customer when the platform asked, gathered into one JSON export for the merchant to send on.
 * Keyed by the platform's data request id, so a second delivery of one request adds nothing.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    shopId: text('shop_id').notNull().references(() => shops.id, { onDelete: 'cascade' }),
    /** The platform's `data_request.id`, as digits. */
    id: text('id').notNull(),
    /** The platform's customer id, as digits. */
    customerId: text('customer_id').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    export: jsonb('export').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] }), index('data_requests_shop_received_idx').on(t.shopId, t.receivedAt)],
);

/**
 * Missing gifts repaired after an express checkout (CONTRACT part three "Refunds and repairs";
 * docs/repairs.md): one row per (order, rule) whose gift the order lacked. The primary key is
 * what makes a repair happen once however often `orders/paid` is delivered. `status` moves
 * `pending` → `reserved` (budget, limit and stock taken) → `repaired`, or ends in `failed` or a
 * `skipped_*` reason; `quantity` is what the gift adds, `variantId` the gift chosen at planning.
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
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.orderId, t.ruleId] }), index('order_repairs_shop_created_idx').on(t.shopId, t.createdAt)],
);
