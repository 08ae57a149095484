/**
 * Admin API: webhook endpoints and the delivery log (CONTRACT "Admin API", "Outbound
 * webhooks"). Endpoints are configured only here; no public API manages them (SPEC "Events").
 */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import {
  createEndpointBodySchema,
  deliveriesQuerySchema,
  deliveriesResponseSchema,
  endpointResponseSchema,
  MAX_ENDPOINTS_PER_SHOP,
} from './schemas.ts';
import { createEndpointWithinCap, deleteEndpoint, listDeliveries, listEndpoints } from './store.ts';
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

const endpointParamsSchema = z.object({ endpointId: textSchema.min(1) });

export function webhookAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/webhook-endpoints',
      operationId: 'createWebhookEndpoint',
      summary: 'Add a webhook endpoint',
      description: 'The signing `secret` (`whsec_…`) is in this response only. `events` empty or absent means every kind.',
      tag: 'Webhooks',
      body: createEndpointBodySchema(ctx.config.webhookAllowList),
      responses: {
        201: {
          description: 'The endpoint with its secret',
          schema: z.object({ endpoint: endpointResponseSchema.extend({ secret: z.string() }) }),
        },
        400: { description: 'Invalid body, or a URL whose host is local (loopback, private, link-local… in any form) and not in WEBHOOK_ALLOWED_HOSTS' },
        409: { description: `\`{ "error": "Too many webhook endpoints" }\`: at most ${MAX_ENDPOINTS_PER_SHOP} per shop` },
      },
      handler: async ({ shop, body, request, reply }) => {
        const created = await createEndpointWithinCap(ctx, shop.id, body, MAX_ENDPOINTS_PER_SHOP);
        if (!created.ok) {
          throw new ApiError('conflict', {
            error: 'Too many webhook endpoints',
            issue: `A shop has at most ${MAX_ENDPOINTS_PER_SHOP} endpoints; delete one first`,
          });
        }
        const { endpoint, secret } = created;
        request.log.info({ endpointId: endpoint.id }, 'webhook endpoint created');
        return reply.code(201).send({ endpoint: { ...presentEndpoint(endpoint), secret } });
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/webhook-endpoints',
      operationId: 'listWebhookEndpoints',
      summary: 'List the shop\'s webhook endpoints (never their secrets)',
      tag: 'Webhooks',
      responses: { 200: { description: 'The endpoints', schema: z.object({ endpoints: z.array(endpointResponseSchema) }) } },
      handler: async ({ shop }) => ({ endpoints: (await listEndpoints(ctx.db, shop.id)).map(presentEndpoint) }),
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'DELETE',
      path: '/webhook-endpoints/:endpointId',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint (its pending deliveries are cancelled)',
      tag: 'Webhooks',
      params: endpointParamsSchema,
      responses: {
        200: { description: 'Deleted', schema: z.object({ ok: z.literal(true) }) },
        404: { description: '`{ "error": "Webhook endpoint not found" }`' },
      },
      handler: async ({ shop, params }) => {
        const { endpointId } = params;
        const found = await writeShop(ctx, shop.id, (uow) => deleteEndpoint(uow.tx, uow.shop.id, endpointId));
        if (!found) throw notFound('Webhook endpoint');
        return { ok: true as const };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/webhook-deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log, newest first, each with its attempts',
      tag: 'Webhooks',
      query: deliveriesQuerySchema,
      responses: { 200: { description: 'The deliveries', schema: deliveriesResponseSchema }, 400: { description: 'Invalid query' } },
      handler: async ({ shop, query }) => ({
        deliveries: (await listDeliveries(ctx.db, shop.id, query)).map(presentDelivery),
      }),
    }),
  ];
}
