/** Admin API: publishable storefront tokens (CONTRACT "Storefront", 2.). The token is in the creation response only. */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { allowedOriginsSchema, createStorefrontToken, listStorefrontTokens, revokeStorefrontToken } from './tokens.ts';
import type { StorefrontTokenRecord } from './tokens.ts';

const createTokenBodySchema = z.strictObject({
  allowedOrigins: allowedOriginsSchema.meta({
    description: 'Origins (`https://host[:port]`) whose pages may call the storefront routes with this token',
  }),
});
const tokenParamsSchema = z.object({ tokenId: textSchema.min(1) });

const storefrontTokenSchema = z.object({
  id: z.string(),
  prefix: z.string().meta({ description: 'The token\'s visible start, as logs show it' }),
  allowedOrigins: z.array(z.string()),
  createdAt: z.iso.datetime(),
});

const present = (record: StorefrontTokenRecord) => ({ ...record, createdAt: record.createdAt.toISOString() });

export function storefrontTokenAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/storefront-tokens',
      operationId: 'createStorefrontToken',
      summary: 'Create a publishable storefront token',
      description:
        'The token (`token`, `spk_…`) is in this response only; the service keeps its hash. Sent as `X-Storefront-Token` ' +
        'on `/storefront/v1/*`, it opens the storefront routes only, and answers CORS for `allowedOrigins` only.',
      tag: 'Storefront tokens',
      body: createTokenBodySchema,
      bodyError: 'Invalid storefront token body',
      responses: {
        201: {
          description: 'The token and its record',
          schema: z.object({ storefrontToken: storefrontTokenSchema, token: z.string() }),
        },
        400: { description: 'An origin is not `scheme://host[:port]`, or none is given' },
      },
      handler: async ({ shop, body, request, reply }) => {
        const { record, token } = await createStorefrontToken(ctx.db, shop.id, body.allowedOrigins);
        request.log.info({ tokenPrefix: record.prefix }, 'storefront token created');
        return reply.code(201).send({ storefrontToken: present(record), token });
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/storefront-tokens',
      operationId: 'listStorefrontTokens',
      summary: 'List the shop\'s live storefront tokens (never the tokens themselves)',
      tag: 'Storefront tokens',
      responses: {
        200: { description: 'The tokens', schema: z.object({ storefrontTokens: z.array(storefrontTokenSchema) }) },
      },
      handler: async ({ shop }) => ({ storefrontTokens: (await listStorefrontTokens(ctx.db, shop.id)).map(present) }),
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'DELETE',
      path: '/storefront-tokens/:tokenId',
      operationId: 'revokeStorefrontToken',
      summary: 'Revoke a storefront token',
      description: 'The token gets 401 from the next request on.',
      tag: 'Storefront tokens',
      params: tokenParamsSchema,
      responses: {
        200: { description: 'Revoked', schema: z.object({ ok: z.literal(true) }) },
        404: { description: '`{ "error": "Storefront token not found" }`' },
      },
      handler: async ({ shop, params }) => {
        // A unit of work: after its commit the token's cached verification goes before this answer is sent.
        await writeShop(ctx, shop.id, async (uow) => {
          if (!(await revokeStorefrontToken(uow.tx, uow.shop.id, params.tokenId))) throw notFound('Storefront token');
        });
        return { ok: true as const };
      },
    }),
  ];
}
