/**
 * Admin API: `GET /admin/v1/shops/:shopId/repairs` (CONTRACT part three "Refunds and repairs"):
 * the orders whose missing gift the service added or decided not to add, newest first. A shop
 * route of the shared table, so the merchant admin lists them too (`/app/api/v1/repairs`).
 */
import { numericIdOf } from '@gcrs/engine';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { bytewise } from '../db/collation.ts';
import { findVariants } from '../catalog/store.ts';
import { orderRepairs, rules } from '../db/schema.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import { REPAIR_STATUS_NAMES } from './statuses.ts';
import type { MountableRoute } from '../http/shop-routes.ts';

const repairSchema = z.object({
  orderId: z.string().meta({ description: 'The platform order id (digits)' }),
  campaignId: z.string(),
  ruleId: z.string(),
  variantId: z.string().meta({ description: 'The gift variant added (or that would have been)' }),
  ruleName: z.string().nullable().meta({ description: 'The rule\'s name; null once the rule is deleted' }),
  giftTitle: z.string().nullable().meta({
    description: 'The gift as the catalog names it: the product title, with the variant title unless it is the platform\'s "Default Title"; null when the catalog does not know it',
  }),
  quantity: z.int(),
  status: z.enum(REPAIR_STATUS_NAMES).meta({
    description:
      '`repaired`: the gift was added and discounted; `pending`/`editing`/`reserved`: in progress (`reserved`: waiting for a retry); ' +
      '`failed`: the platform refused the edit (`detail` says why; budget and redemption given back); `interrupted`: stopped during the edit, ' +
      'check the order; `cancelled`: the order was cancelled (or the gift refunded) before the repair ended, budget and redemption given back; ' +
      '`skipped_*`: not added, and why',
  }),
  detail: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const repairsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: 'At most this many, newest first (1..500, default 100)' }),
  before: z.iso.datetime().optional().meta({ description: 'Only repairs created before this instant (the last `createdAt` of a page, for the next one)' }),
});

export const repairsResponseSchema = z.object({ repairs: z.array(repairSchema) });

export function repairAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/repairs',
      operationId: 'listRepairs',
      summary: 'Orders whose missing gift was repaired after an express checkout',
      description:
        'One entry per (order, rule) that a live `auto_add` rule matched on `orders/paid` without a gift line of it: the gift added with ' +
        "the platform's order editing, or why not. Counted in analytics as gifts given once `repaired`. Off with the shop setting " +
        '`checkout.repairMissingGifts` (docs/repairs.md).',
      tag: 'Orders',
      query: repairsQuerySchema,
      responses: { 200: { description: 'The repairs, newest first', schema: repairsResponseSchema }, 400: { description: 'A bad `limit` or `before`' } },
      handler: async ({ shop, query }) => {
        const before = query.before === undefined ? undefined : new Date(query.before);
        const rows = await ctx.db
          .select()
          .from(orderRepairs)
          .where(and(eq(orderRepairs.shopId, shop.id), before === undefined ? undefined : lt(orderRepairs.createdAt, before)))
          .orderBy(desc(orderRepairs.createdAt), desc(bytewise(orderRepairs.orderId)), desc(bytewise(orderRepairs.ruleId)))
          .limit(query.limit);
        // Names a merchant reads (issue 23 "Words a merchant reads"): the rule's and the gift's.
        const ruleIds = [...new Set(rows.map((row) => row.ruleId))];
        const ruleNames = new Map(
          ruleIds.length === 0
            ? []
            : (await ctx.db.select({ id: rules.id, name: rules.name }).from(rules).where(and(eq(rules.shopId, shop.id), inArray(rules.id, ruleIds)))).map(
                (rule) => [rule.id, rule.name] as const,
              ),
        );
        const numericIds = [...new Set(rows.flatMap((row) => numericIdOf(row.variantId) ?? []))];
        const giftTitles = new Map(
          (await findVariants(ctx.db, shop.id, numericIds)).map((variant) => [
            numericIdOf(variant.id),
            variant.title && variant.title !== 'Default Title' ? `${variant.productTitle} – ${variant.title}` : variant.productTitle,
          ]),
        );
        return {
          repairs: rows.map((row) => ({
            orderId: row.orderId,
            campaignId: row.campaignId,
            ruleId: row.ruleId,
            variantId: row.variantId,
            ruleName: ruleNames.get(row.ruleId) ?? null,
            giftTitle: giftTitles.get(numericIdOf(row.variantId)) ?? null,
            quantity: row.quantity,
            status: row.status,
            detail: row.detail,
            createdAt: row.createdAt.toISOString(),
            updatedAt: row.updatedAt.toISOString(),
          })),
        };
      },
    }),
  ];
}
