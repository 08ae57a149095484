/**
 * The one Drizzle schema. Every table is keyed by shop first: the shop id leads each primary
 * key and index, and every query filters by it, so one shop's rows can never answer another's.
 * Change it, then run `npm run db:generate` to write the next migration.
 */
export * from './schema/shops.ts';
export * from './schema/campaigns.ts';
export * from './schema/catalog.ts';
export * from './schema/delivery.ts';
export * from './schema/orders.ts';
export * from './schema/analytics.ts';
