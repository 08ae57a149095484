/** Admin API: API keys (CONTRACT "Admin API"). The key is in the creation response only. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shopFromPath } from '../admin/admin-auth.ts';
import type { AppContext } from '../context.ts';
import { notFound, parseOr400 } from '../http/errors.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './store.ts';
import type { ApiKeyRecord } from './store.ts';

const createKeyBodySchema = z.strictObject({ name: z.string().trim().min(1).max(100).default('API key') });

const presentKey = (key: ApiKeyRecord) => ({ ...key, createdAt: key.createdAt.toISOString() });

export function registerApiKeyAdminRoutes(admin: FastifyInstance, ctx: AppContext): void {
  admin.post('/shops/:shopId/api-keys', async (request, reply) => {
    const shop = await shopFromPath(ctx.db, request);
    const body = parseOr400(createKeyBodySchema, request.body ?? {}, 'Invalid request body');
    const { apiKey, key } = await createApiKey(ctx.db, shop.id, body.name);
    request.log.info({ keyPrefix: apiKey.prefix }, 'api key created');
    return reply.code(201).send({ apiKey: presentKey(apiKey), key });
  });

  admin.get('/shops/:shopId/api-keys', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    return { apiKeys: (await listApiKeys(ctx.db, shop.id)).map(presentKey) };
  });

  admin.delete('/shops/:shopId/api-keys/:keyId', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const { keyId } = request.params as { keyId: string };
    if (!(await revokeApiKey(ctx.db, shop.id, keyId))) throw notFound('API key');
    return { ok: true };
  });
}
