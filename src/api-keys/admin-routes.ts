/** Admin API: API keys (CONTRACT "Admin API"). The key is in the creation response only. */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './store.ts';
import type { ApiKeyRecord } from './store.ts';

const createKeyBodySchema = z.strictObject({ name: textSchema.trim().min(1).max(100).default('API key') });
const keyParamsSchema = z.object({ keyId: textSchema.min(1) });

const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().meta({ description: 'The key\'s visible start, as logs show it' }),
  createdAt: z.iso.datetime(),
});

const presentKey = (key: ApiKeyRecord) => ({ ...key, createdAt: key.createdAt.toISOString() });

export function apiKeyAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/api-keys',
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description: 'The key itself (`key`) is in this response only; the service keeps its hash.',
      tag: 'API keys',
      body: createKeyBodySchema,
      bodyOptional: true,
      responses: {
        201: { description: 'The key and its record', schema: z.object({ apiKey: apiKeySchema, key: z.string() }) },
        400: { description: 'Invalid body' },
      },
      handler: async ({ shop, body, request, reply }) => {
        const { apiKey, key } = await createApiKey(ctx.db, shop.id, body.name);
        request.log.info({ keyPrefix: apiKey.prefix }, 'api key created');
        return reply.code(201).send({ apiKey: presentKey(apiKey), key });
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/api-keys',
      operationId: 'listApiKeys',
      summary: 'List the shop\'s API keys (never the keys themselves)',
      tag: 'API keys',
      responses: { 200: { description: 'The keys', schema: z.object({ apiKeys: z.array(apiKeySchema) }) } },
      handler: async ({ shop }) => ({ apiKeys: (await listApiKeys(ctx.db, shop.id)).map(presentKey) }),
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'DELETE',
      path: '/api-keys/:keyId',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      tag: 'API keys',
      params: keyParamsSchema,
      responses: {
        200: { description: 'Revoked', schema: z.object({ ok: z.literal(true) }) },
        404: { description: '`{ "error": "API key not found" }`' },
      },
      handler: async ({ shop, params }) => {
        // A unit of work: after its commit, before this answer, the shop version is bumped and
        // no instance serves the key from memory again.
        await writeShop(ctx, shop.id, async (uow) => {
          if (!(await revokeApiKey(uow.tx, uow.shop.id, params.keyId))) throw notFound('API key');
        });
        return { ok: true };
      },
    }),
  ];
}
