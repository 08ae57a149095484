/**
 * `appSubscriptionCreate` and `appSubscriptionCancel` through the platform's Admin GraphQL client
 * (Admin API 2025-10): one recurring line item at the plan's configured price; the cancel of the
 * shop's current subscription when the merchant goes back to Free. Every way either can fail
 * comes back as a value the route turns into a 4xx: the merchant is told what happened, never
 * given a 5xx.
 */
import { adminClient } from '../platform/admin-client.ts';
import type { PlatformCredentials, PlatformWriteOptions } from '../platform/admin-discount-port.ts';
import type { PlanPrice } from './prices.ts';

export const APP_SUBSCRIPTION_CREATE = `mutation CreateAppSubscription($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!, $test: Boolean, $trialDays: Int) {
  appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, test: $test, trialDays: $trialDays) {
    appSubscription { id status }
    confirmationUrl
    userErrors { field message }
  }
}`;

/**
 * Cancels at once, without proration (the platform's default `prorate: false`: the merchant keeps
 * nothing back for the rest of the billing cycle, as with the platform's own uninstall).
 */
export const APP_SUBSCRIPTION_CANCEL = `mutation CancelAppSubscription($id: ID!) {
  appSubscriptionCancel(id: $id) {
    appSubscription { id status }
    userErrors { field message }
  }
}`;

export type SubscriptionRequest = { name: string; price: PlanPrice; returnUrl: string; test: boolean };

/** Why the platform did not do it: the same for a creation and a cancel. */
export type PlatformRefusal =
  /** The platform refused the access token (401): the connection is broken. */
  | { ok: false; reason: 'unauthorized'; message: string }
  /** 429: `retryAfter` in seconds, as the platform said or 2. */
  | { ok: false; reason: 'throttled'; message: string; retryAfter: number }
  /** userErrors: the platform refused the subscription itself. */
  | { ok: false; reason: 'refused'; message: string }
  /** Anything else: an errors array, another status, no answer, an answer without the fields. */
  | { ok: false; reason: 'failed'; message: string };

export type CreateResult = { ok: true; id: string; confirmationUrl: string } | PlatformRefusal;

/** `status` is the platform's word in its answer (CANCELLED); the plan still waits for its webhook. */
export type CancelResult = { ok: true; id: string; status: string } | PlatformRefusal;

type CancelPayload = {
  appSubscriptionCancel: {
    appSubscription: { id: string; status: string } | null;
    userErrors: Array<{ field?: string[] | null; message: string }>;
  } | null;
};

type Payload = {
  appSubscriptionCreate: {
    appSubscription: { id: string; status: string } | null;
    confirmationUrl: string | null;
    userErrors: Array<{ field?: string[] | null; message: string }>;
  } | null;
};

type ClientErrors = { networkStatusCode?: number; message?: string; graphQLErrors?: Array<{ message?: string }>; response?: Response };

function failure(errors: ClientErrors): PlatformRefusal {
  const status = errors.networkStatusCode;
  if (status === 401) return { ok: false, reason: 'unauthorized', message: 'The platform refused the shop\'s access token (401)' };
  if (status === 429) {
    const header = Number(errors.response?.headers.get('retry-after'));
    return { ok: false, reason: 'throttled', message: 'The platform is throttling this shop\'s requests (429)', retryAfter: Number.isFinite(header) && header > 0 ? Math.ceil(header) : 2 };
  }
  const graphql = errors.graphQLErrors?.map((e) => e.message).filter(Boolean).join('; ');
  const text = graphql || errors.message || 'no answer';
  return { ok: false, reason: 'failed', message: status === undefined ? text : `${text} (HTTP ${status})` };
}

/**
 * Creates the subscription; the merchant approves it at `confirmationUrl`.
 *
 * @example
 *   const created = await createPlatformSubscription(credentials, { name: 'Pro', price, returnUrl, test: true }, { functionId: undefined });
 */
export async function createPlatformSubscription(
  credentials: PlatformCredentials,
  request: SubscriptionRequest,
  options: PlatformWriteOptions,
): Promise<CreateResult> {
  const client = adminClient(credentials, options);
  let answer;
  try {
    answer = await client.request<Payload>(APP_SUBSCRIPTION_CREATE, {
      variables: {
        name: request.name,
        returnUrl: request.returnUrl,
        test: request.test,
        ...(request.price.trialDays ? { trialDays: request.price.trialDays } : {}),
        lineItems: [
          {
            plan: {
              appRecurringPricingDetails: {
                price: { amount: request.price.amount, currencyCode: request.price.currencyCode },
                interval: request.price.interval,
              },
            },
          },
        ],
      },
    });
  } catch (error) {
    return { ok: false, reason: 'failed', message: (error as Error).message };
  }
  if (answer.errors) return failure(answer.errors as ClientErrors);
  const payload = answer.data?.appSubscriptionCreate;
  if (!payload) return { ok: false, reason: 'failed', message: 'The platform answered without appSubscriptionCreate' };
  if (payload.userErrors.length > 0) return { ok: false, reason: 'refused', message: payload.userErrors.map((e) => e.message).join('; ') };
  const id = payload.appSubscription?.id;
  if (!id || !payload.confirmationUrl) return { ok: false, reason: 'failed', message: 'The platform answered without a subscription id or confirmation URL' };
  return { ok: true, id, confirmationUrl: payload.confirmationUrl };
}

/**
 * Cancels the subscription `id` (the shop's current one); the platform then sends
 * `app_subscriptions/update` CANCELLED, which sets Free (subscriptions.ts).
 *
 * @example
 *   const cancelled = await cancelPlatformSubscription(credentials, 'gid://shopify/AppSubscription/1', { functionId: undefined });
 */
export async function cancelPlatformSubscription(credentials: PlatformCredentials, id: string, options: PlatformWriteOptions): Promise<CancelResult> {
  const client = adminClient(credentials, options);
  let answer;
  try {
    answer = await client.request<CancelPayload>(APP_SUBSCRIPTION_CANCEL, { variables: { id } });
  } catch (error) {
    return { ok: false, reason: 'failed', message: (error as Error).message };
  }
  if (answer.errors) return failure(answer.errors as ClientErrors);
  const payload = answer.data?.appSubscriptionCancel;
  if (!payload) return { ok: false, reason: 'failed', message: 'The platform answered without appSubscriptionCancel' };
  if (payload.userErrors.length > 0) return { ok: false, reason: 'refused', message: payload.userErrors.map((e) => e.message).join('; ') };
  const cancelled = payload.appSubscription;
  if (!cancelled?.id || !cancelled.status) return { ok: false, reason: 'failed', message: 'The platform answered without the subscription' };
  return { ok: true, id: cancelled.id, status: cancelled.status };
}
