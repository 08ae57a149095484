/**
 * The one Drizzle schema. Every table is keyed by shop first: the shop id leads each primary
 * key and index, and every query filters by it, so one shop's rows can never answer another's.
 * Change it, then run `npm run db:generate` to write the next migration. JSON columns carry the
 * types of the engine's Zod schemas (`$type`); the db layer imports no feature of the service.
 */
export * from './schema/shops.ts';
export * from './schema/campaigns.ts';
export * from './schema/catalog.ts';
export * from './schema/delivery.ts';
export * from './schema/orders.ts';
export * from './schema/analytics.ts';
