/** Admin API shapes of webhook endpoints and the delivery log (CONTRACT "Admin API"). */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../outbox/enqueue.ts';

export const MAX_ENDPOINTS_PER_SHOP = 20;

export const createEndpointBodySchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'Expected an http:// or https:// URL' }).max(2048),
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
