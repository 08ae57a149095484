/** Admin API: shops (CONTRACT "Admin API"). */
import type { AppContext } from '../context.ts';
import { ApiError, conflict } from '../http/errors.ts';
import { connectionStatus } from '../platform/connections.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { patchShop } from './patch-shop.ts';
import { createShopBodySchema, patchShopBodySchema, presentShop, shopResponseSchema } from './shop-schemas.ts';
import { createShop, DuplicateDomainError } from './store.ts';

const badBody = { description: 'Invalid body (`issue` and `path` name the first bad field)' };

export function shopAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
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
        409: { description: 'A shop with this domain exists: `{ "error": "Shop domain already registered", "path": ["domain"] }`' },
      },
      handler: async ({ body, reply }) => {
        try {
          const shop = await createShop(ctx.db, body);
          return reply.code(201).send({ shop: presentShop(shop, ctx.config.planCaps, await connectionStatus(ctx.db, shop.id)) });
        } catch (error) {
          if (error instanceof DuplicateDomainError) {
            throw new ApiError('conflict', { error: 'Shop domain already registered', path: ['domain'] });
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
