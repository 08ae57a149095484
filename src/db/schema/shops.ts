/** Shops and who may act for them: API keys, storefront tokens, the platform connection, app subscriptions, admin sign-in. */
import type { Caps, Plan, StoredShopSettings } from '@gcrs/engine';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns.ts';

export const shops = pgTable(
  'shops',
  {
    id: text('id').primaryKey(),
    domain: text('domain').notNull(),
    /** The shop's name as the platform gives it (read at install); null for a shop the operator created. */
    name: text('name'),
    plan: text('plan').$type<Plan>().notNull(),
    currency: text('currency').notNull(),
    timezone: text('timezone').notNull(),
    /** Per-shop overrides of the plan caps only; effectiveCaps (src/shops/plans.ts) says what is in force. */
    limits: jsonb('limits').$type<Partial<Caps>>().notNull().default({}),
    /** Partial shopSettings plus the server's own settings, as the admin last set them. */
    settings: jsonb('settings').$type<StoredShopSettings>().notNull().default({}),
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

/**
 * A shop as every store function takes it: its row without the columns that other reads own
 * (the widget document and its version, the storefront and onboarding marks).
 */
export type ShopRecord = Omit<typeof shops.$inferSelect, 'widgets' | 'widgetsVersion' | 'storefrontSeenAt' | 'onboardingDismissedAt'>;

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
