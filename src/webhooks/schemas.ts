/** Admin API shapes of webhook endpoints and the delivery log (CONTRACT "Admin API"). */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../outbox/enqueue.ts';
import type { DestinationAllowList } from './destination-policy.ts';
import { webhookDestinationSchema } from './url.ts';

export const MAX_ENDPOINTS_PER_SHOP = 20;

/** The body of a new endpoint; `allowList` is the operator's WEBHOOK_ALLOWED_HOSTS. */
export const createEndpointBodySchema = (allowList: DestinationAllowList) =>
  z.strictObject({
    url: webhookDestinationSchema(allowList),
    // Empty or absent means every kind, now and later (the outbox reads [] that way).
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .default([])
      .transform((events) => [...new Set(events)]),
  });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;

export const deliveriesQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

/** An endpoint as the admin API shows it (documentation only; never the secret). */
export const endpointResponseSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()).meta({ description: 'Empty: every kind of event' }),
  createdAt: z.iso.datetime(),
  disabledAt: z.iso.datetime().nullable(),
});

/** GET …/webhook-deliveries (documentation only). */
export const deliveriesResponseSchema = z.object({
  deliveries: z.array(
    z.object({
      id: z.string(),
      endpointId: z.string().nullable(),
      messageId: z.string().nullable().meta({ description: 'The `webhook-id`: the same on every retry' }),
      type: z.string(),
      status: z.enum(DELIVERY_STATUSES),
      attempts: z.int(),
      lastStatusCode: z.int().nullable(),
      lastError: z.string().nullable(),
      nextAttemptAt: z.iso.datetime(),
      createdAt: z.iso.datetime(),
      attemptLog: z.array(
        z.object({
          attempt: z.int(),
          statusCode: z.int().nullable(),
          error: z.string().nullable(),
          durationMs: z.number(),
          attemptedAt: z.iso.datetime(),
        }),
      ),
    }),
  ),
});
