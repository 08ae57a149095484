/** Campaigns, their rules and experiments, and what the checkout function is given of them. */
import type { CheckoutFunctionConfig, CheckoutFunctionConfigV1, CheckoutFunctionVariables } from '@gcrs/engine/checkout';
import type { Budget, GiftConfig, RuleOptions } from '@gcrs/engine';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns.ts';
import { shops } from './shops.ts';

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
    budget: jsonb('budget').$type<Budget>(),
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
    giftConfig: jsonb('gift_config').$type<GiftConfig>().notNull(),
    options: jsonb('options').$type<RuleOptions>().notNull(),
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
/**
 * A checkout configuration as its row holds it: format 2's rules (an object, in the rules'
 * order) as `[key, text]` pairs, since jsonb does not keep an object's key order
 * (src/checkout/config-store.ts converts both ways); format 1 as written.
 */
export type StoredCheckoutConfig = CheckoutFunctionConfigV1 | (Omit<CheckoutFunctionConfig, 'r'> & { r: Array<[string, string]> });

export const checkoutConfigs = pgTable('checkout_configs', {
  shopId: text('shop_id').primaryKey().references(() => shops.id, { onDelete: 'cascade' }),
  config: jsonb('config').$type<StoredCheckoutConfig>().notNull(),
  variables: jsonb('variables').$type<CheckoutFunctionVariables>().notNull(),
  /** Both metafields' JSON in UTF-8 bytes, against the platform's 10,000. */
  bytes: integer('bytes').notNull(),
  /** Where the configuration went: the platform's metafields, or only this table (no connection). */
  target: text('target').$type<'platform' | 'recorded'>().notNull(),
  platformDiscountId: text('platform_discount_id'),
  writtenAt: ts('written_at').notNull(),
  /** The last failed write to the platform since `writtenAt` (cleared by the next success). */
  lastError: text('last_error'),
  lastErrorAt: ts('last_error_at'),
});
