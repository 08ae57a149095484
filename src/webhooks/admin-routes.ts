/**
 * Admin API: webhook endpoints and the delivery log (CONTRACT "Admin API", "Outbound
 * webhooks"). Endpoints are configured only here; no public API manages them (SPEC "Events").
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shopFromPath } from '../admin/admin-auth.ts';
import type { AppContext } from '../context.ts';
import { ApiError, notFound, parseOr400 } from '../http/errors.ts';
import { createEndpointBodySchema, deliveriesQuerySchema, MAX_ENDPOINTS_PER_SHOP } from './schemas.ts';
import { countEndpoints, createEndpoint, deleteEndpoint, listDeliveries, listEndpoints } from './store.ts';
import type { DeliveryRecord, EndpointRecord } from './store.ts';

const isoOrNull = (date: Date | null) => (date === null ? null : date.toISOString());

// Never the secret: it is shown once, in the creation response.
const presentEndpoint = (e: EndpointRecord) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  createdAt: e.createdAt.toISOString(),
  disabledAt: isoOrNull(e.disabledAt),
});

const presentDelivery = (d: DeliveryRecord) => ({
  ...d,
  nextAttemptAt: d.nextAttemptAt.toISOString(),
  createdAt: d.createdAt.toISOString(),
  attemptLog: d.attemptLog.map((a) => ({ ...a, attemptedAt: a.attemptedAt.toISOString() })),
});

const endpointParamsSchema = z.object({ endpointId: z.string().min(1) });

export function registerWebhookAdminRoutes(admin: FastifyInstance, ctx: AppContext): void {
  admin.post('/shops/:shopId/webhook-endpoints', async (request, reply) => {
    const shop = await shopFromPath(ctx.db, request);
    const body = parseOr400(createEndpointBodySchema, request.body, 'Invalid request body');
    if ((await countEndpoints(ctx.db, shop.id)) >= MAX_ENDPOINTS_PER_SHOP) {
      throw new ApiError('conflict', {
        error: 'Too many webhook endpoints',
        issue: `A shop has at most ${MAX_ENDPOINTS_PER_SHOP} endpoints; delete one first`,
      });
    }
    const { endpoint, secret } = await createEndpoint(ctx.db, shop.id, body);
    request.log.info({ endpointId: endpoint.id }, 'webhook endpoint created');
    return reply.code(201).send({ endpoint: { ...presentEndpoint(endpoint), secret } });
  });

  admin.get('/shops/:shopId/webhook-endpoints', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    return { endpoints: (await listEndpoints(ctx.db, shop.id)).map(presentEndpoint) };
  });

  admin.delete('/shops/:shopId/webhook-endpoints/:endpointId', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const { endpointId } = parseOr400(endpointParamsSchema, request.params, 'Invalid path parameters');
    const found = await ctx.db.transaction((tx) => deleteEndpoint(tx, shop.id, endpointId));
    if (!found) throw notFound('Webhook endpoint');
    return { ok: true as const };
  });

  admin.get('/shops/:shopId/webhook-deliveries', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const query = parseOr400(deliveriesQuerySchema, request.query, 'Invalid query parameters');
    return { deliveries: (await listDeliveries(ctx.db, shop.id, query)).map(presentDelivery) };
  });
}
