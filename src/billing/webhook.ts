/**
 * `app_subscriptions/update` as the platform sends it (its REST webhook shape):
 *
 *   { "app_subscription": { "admin_graphql_api_id": "gid://shopify/AppSubscription/1029266951",
 *     "name": "Pro", "status": "ACTIVE", "admin_graphql_api_shop_id": "gid://shopify/Shop/548380009",
 *     "created_at": "2021-12-31T19:00:00-05:00", "updated_at": "2021-12-31T19:00:00-05:00",
 *     "currency": "USD", "capped_amount": "20.0" } }
 *
 * Only the id, name, status and `updated_at` are read; the platform adds fields over versions.
 */
import { z } from 'zod';
import { timestampInputSchema } from '../http/timestamp.ts';
import { SUBSCRIPTION_STATUSES } from './subscriptions.ts';
import type { SubscriptionUpdate } from './subscriptions.ts';

export const APP_SUBSCRIPTIONS_UPDATE = 'app_subscriptions/update';

export const appSubscriptionUpdateSchema = z
  .object({
    app_subscription: z.object({
      admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/AppSubscription\/\d{1,20}$/, 'Expected an AppSubscription gid such as gid://shopify/AppSubscription/1'),
      name: z.string().max(255),
      status: z
        .string()
        .transform((status) => status.toUpperCase())
        .pipe(z.enum(SUBSCRIPTION_STATUSES)),
      updated_at: timestampInputSchema,
    }),
  })
  .transform(({ app_subscription: s }): SubscriptionUpdate => ({ id: s.admin_graphql_api_id, name: s.name, status: s.status, updatedAt: s.updated_at }));
