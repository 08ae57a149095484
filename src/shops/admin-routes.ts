/** Admin API: shops (CONTRACT "Admin API"). */
import type { AppContext } from '../context.ts';
import { ApiError, conflict } from '../http/errors.ts';
import { connectionStatus } from '../platform/connections.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { patchShop } from './patch-shop.ts';
import { createShopBodySchema, listShopsQuerySchema, patchShopBodySchema, presentShop, shopListResponseSchema, shopResponseSchema } from './shop-schemas.ts';
import { createShop, DuplicateDomainError, getShopByDomain, listShopsPage } from './store.ts';

const badBody = { description: 'Invalid body (`issue` and `path` name the first bad field)' };

export function shopAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'operator',
      method: 'GET',
      path: '/shops',
      operationId: 'listShops',
      summary: 'List shops',
      description: 'Every shop, oldest first, a page at a time; `domain` finds one shop by its domain.',
      tag: 'Shops',
      query: listShopsQuerySchema,
      responses: { 200: { description: 'A page of shops', schema: shopListResponseSchema }, 400: { description: 'Invalid query parameters' } },
      handler: async ({ query }) => {
        const page = await listShopsPage(ctx.db, { domain: query.domain, limit: query.limit, afterId: query.cursor });
        const shops = await Promise.all(page.shops.map(async (shop) => presentShop(shop, ctx.config.planCaps, await connectionStatus(ctx.db, shop.id))));
        return { shops, nextCursor: page.nextAfterId ?? null };
      },
    }),

    defineAdminRoute({
      scope: 'operator',
      method: 'POST',
      path: '/shops',
      operationId: 'createShop',
      summary: 'Create a shop',
      description: '`domain` is stored lowercase and is unique; `currency` defaults to USD and `timezone` to UTC.',
      tag: 'Shops',
      body: createShopBodySchema,
      responses: {
        201: { description: 'The new shop', schema: shopResponseSchema },
        400: badBody,
        409: {
          description:
            'A shop with this domain exists: `{ "error": "Shop domain already registered", "path": ["domain"], "shopId": "shp_…", "issue": "…" }` (`shopId` names it)',
        },
      },
      handler: async ({ body, reply }) => {
        try {
          const shop = await createShop(ctx.db, body);
          return reply.code(201).send({ shop: presentShop(shop, ctx.config.planCaps, await connectionStatus(ctx.db, shop.id)) });
        } catch (error) {
          if (error instanceof DuplicateDomainError) {
            // Names the shop, so an operator who runs a setup twice can carry on with it.
            const existing = await getShopByDomain(ctx.db, body.domain);
            throw new ApiError('conflict', {
              error: 'Shop domain already registered',
              path: ['domain'],
              ...(existing ? { shopId: existing.id, issue: `${body.domain} is shop ${existing.id} (GET /admin/v1/shops/${existing.id})` } : {}),
            });
          }
          throw error;
        }
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '',
      operationId: 'getShop',
      summary: 'Read a shop',
      tag: 'Shops',
      responses: { 200: { description: 'The shop', schema: shopResponseSchema } },
      handler: async ({ shop }) => ({ shop: presentShop(shop, ctx.config.planCaps, await connectionStatus(ctx.db, shop.id)) }),
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'PATCH',
      path: '',
      operationId: 'updateShop',
      summary: 'Change a shop\'s plan, currency, time zone, cap overrides or settings',
      description:
        'Fields left out are kept. A `limits` entry of `null` removes that override; `settings` merge deeply. ' +
        'A shop connected to the platform changes plan only through the platform\'s billing (docs/billing.md): a different `plan` is a 409.',
      tag: 'Shops',
      body: patchShopBodySchema,
      bodyOptional: true,
      responses: {
        200: { description: 'The updated shop', schema: shopResponseSchema },
        400: badBody,
        409: { description: 'A new `plan` for a shop connected to the platform: its plan follows its app subscription' },
      },
      handler: async ({ shop, body }) => {
        // CONTRACT part three: "the plan changes only when the platform says so"; shops that are
        // not connected keep this plan change.
        if (body.plan !== undefined && body.plan !== shop.plan && (await connectionStatus(ctx.db, shop.id)).connected) {
          throw conflict('The shop\'s plan is billed by the platform', {
            issue: `Subscribe with POST /admin/v1/shops/${shop.id}/billing/subscription; the plan changes when the platform confirms it`,
            path: ['plan'],
          });
        }
        const updated = await patchShop(ctx, shop.id, body);
        return { shop: presentShop(updated, ctx.config.planCaps, await connectionStatus(ctx.db, shop.id)) };
      },
    }),
  ];
}
