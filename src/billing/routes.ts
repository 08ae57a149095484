/**
 * Plans through the platform's billing (CONTRACT part three; docs/billing.md). Admin routes of
 * one shop, so the merchant admin mounts the very same handlers: the operator's
 * `POST /admin/v1/shops/:shopId/billing/subscription` is the merchant's Settings → Plan.
 * Creating a subscription changes no plan, nor does cancelling one (the way back to Free):
 * `app_subscriptions/update` does (subscriptions.ts).
 */
import { PLAN_NAMES } from '@gcrs/engine';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { ApiError } from '../http/errors.ts';
import { conflict } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { connectionStatus, markConnectionBroken, shopCredentials } from '../platform/connections.ts';
import { platformThrottled, refusedToken, unreadableToken } from '../platform/refusals.ts';
import { planSchema } from '../shops/plans.ts';
import type { ShopRecord } from '../shops/store.ts';
import { cancelPlatformSubscription, createPlatformSubscription } from './platform-subscription.ts';
import type { PlatformRefusal } from './platform-subscription.ts';
import { isPaidPlan, planPriceSchema } from './prices.ts';
import { currentSubscription, recordPendingSubscription, SUBSCRIPTION_STATUSES } from './subscriptions.ts';
import type { SubscriptionStatus } from './subscriptions.ts';

const BODY_ERROR = 'Invalid billing body';
const PLATFORM_ADMIN = 'https://admin.shopify.com';

const subscribeBodySchema = z.strictObject({
  plan: planSchema.meta({ description: 'The paid plan to subscribe to (growth, pro or scale), or `free`: cancel the current subscription' }),
});

const subscriptionAnswerSchema = z.object({
  confirmationUrl: z.url().nullable().meta({ description: 'Where the merchant approves a paid plan (at the top level); null for `free`: a cancel needs no approval' }),
  subscriptionId: z.string().meta({ description: 'The subscription created, or the one cancelled' }),
  status: z.enum(SUBSCRIPTION_STATUSES).meta({ description: 'PENDING until approved; CANCELLED for `free` (the plan is Free once `app_subscriptions/update` says so)' }),
});

const billingSchema = z.object({
  plan: planSchema,
  connected: z.boolean().meta({ description: 'Plans change through the platform\'s billing only when true; otherwise the operator sets the plan' }),
  currentSubscriptionId: z.string().nullable(),
  test: z.boolean().meta({ description: 'Subscriptions are created as test charges (PLATFORM_BILLING_TEST)' }),
  plans: z.array(
    z.object({
      plan: planSchema,
      name: z.string(),
      price: planPriceSchema.nullable().meta({ description: 'null: Free, or a plan the operator does not sell' }),
    }),
  ),
});

/**
 * Where the platform sends the merchant after the confirmation page: the app inside the
 * platform's admin (`https://admin.shopify.com/store/<handle>/apps/<client id>`, what the
 * platform's library builds), else the service's own admin.
 *
 * @example embeddedAdminUrl('acme.myshopify.com', 'key', 'https://gifts.example'); // 'https://admin.shopify.com/store/acme/apps/key'
 */
export function embeddedAdminUrl(domain: string, appKey: string | undefined, publicUrl: string): string {
  const handle = /^([a-z0-9][a-z0-9-]*)\.myshopify\.com$/.exec(domain)?.[1];
  return handle !== undefined && appKey !== undefined ? `${PLATFORM_ADMIN}/store/${handle}/apps/${encodeURIComponent(appKey)}` : `${publicUrl}/app/`;
}

/** A failed creation or cancel as the merchant reads it: never a 5xx (CONTRACT part three "Bad input"). */
function refusal(result: PlatformRefusal, what: 'create' | 'cancel'): ApiError {
  switch (result.reason) {
    case 'unauthorized':
      return refusedToken(result.message);
    case 'throttled':
      return platformThrottled(result.message, result.retryAfter);
    case 'refused':
      return conflict(what === 'create' ? 'The platform refused the subscription' : 'The platform refused to cancel the subscription', { issue: result.message });
    case 'failed':
      return conflict(`The platform did not ${what} the subscription`, { issue: `${result.message}; nothing was changed, try again` });
  }
}

export function billingAdminRoutes(ctx: AppContext): MountableRoute[] {
  const { config } = ctx;
  const present = async (shop: ShopRecord) => ({
    plan: shop.plan,
    connected: (await connectionStatus(ctx.db, shop.id)).connected,
    currentSubscriptionId: (await currentSubscription(ctx.db, shop.id))?.id ?? null,
    test: config.billingTest,
    plans: planSchema.options.map((plan) => ({ plan, name: PLAN_NAMES[plan], price: (isPaidPlan(plan) && config.billingPrices[plan]) || null })),
  });

  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/billing',
      operationId: 'getBilling',
      summary: 'The shop\'s plan, whether it is billed by the platform, and the plans with their prices',
      tag: 'Billing',
      responses: { 200: { description: 'Billing', schema: billingSchema } },
      handler: async ({ shop }) => present(shop),
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/billing/subscription',
      operationId: 'createBillingSubscription',
      summary: 'Start a plan change through the platform\'s billing: the merchant approves a paid plan at `confirmationUrl`; `free` cancels',
      description:
        'A paid plan: creates the app subscription with the Admin API\'s `appSubscriptionCreate` (`name` = the plan\'s name, a recurring price from ' +
        'PLATFORM_BILLING_PLANS, `test` while PLATFORM_BILLING_TEST is set). `free`: cancels the shop\'s current subscription with ' +
        '`appSubscriptionCancel` (no proration). The plan itself changes only when the platform sends `app_subscriptions/update`: ' +
        'ACTIVE sets the paid plan, CANCELLED of the current subscription sets Free. Platform failures are answered 409 (429 when it throttles), never 5xx.',
      tag: 'Billing',
      body: subscribeBodySchema,
      bodyError: BODY_ERROR,
      responses: {
        200: { description: 'Created, pending approval; or (`free`) cancelled, Free once the platform confirms', schema: subscriptionAnswerSchema },
        400: { description: 'No plan or an unknown plan' },
        409: {
          description:
            'The shop is already on that plan; the plan has no price; `free` with no current subscription to cancel; the shop is not connected ' +
            'to the platform (the operator changes its plan with PATCH); its connection is broken; or the platform refused or did not create ' +
            'or cancel the subscription (`issue` says why)',
        },
        429: { description: 'The platform is throttling the shop: `Retry-After` seconds' },
      },
      handler: async ({ shop, body, request }) => {
        const plan = body.plan;
        if (shop.plan === plan) throw conflict(`The shop is already on the ${PLAN_NAMES[plan]} plan`);
        const price = isPaidPlan(plan) ? config.billingPrices[plan] : undefined;
        if (isPaidPlan(plan) && price === undefined) throw conflict(`The ${PLAN_NAMES[plan]} plan is not for sale`, { issue: 'The operator has set no price for it (PLATFORM_BILLING_PLANS)' });
        const credentials = await shopCredentials(ctx.db, config.platformAppSecret, shop.id);
        if (credentials.state === 'none') {
          throw conflict('The shop is not connected to the platform', { issue: `Its plan is changed by the operator: PATCH /admin/v1/shops/${shop.id} { "plan": "${plan}" }` });
        }
        if (credentials.state === 'unreadable') throw unreadableToken();
        const writeOptions = { functionId: undefined, ...(config.platformAdminApiUrl === undefined ? {} : { adminApiUrl: config.platformAdminApiUrl }) };
        if (!isPaidPlan(plan) || price === undefined) {
          // Back to Free: cancel the current subscription. The answer already says CANCELLED, but
          // the plan waits for the platform's `app_subscriptions/update` (docs/billing.md "Back to Free").
          const current = await currentSubscription(ctx.db, shop.id);
          if (current === undefined) {
            throw conflict('The shop has no subscription to cancel', { issue: 'Its plan was not bought through the platform\'s billing: the operator changes it' });
          }
          const cancelled = await cancelPlatformSubscription(credentials, current.id, writeOptions);
          if (!cancelled.ok) {
            if (cancelled.reason === 'unauthorized') await markConnectionBroken(ctx.db, shop.id, cancelled.message, ctx.now());
            request.log.warn({ reason: cancelled.reason, detail: cancelled.message, subscriptionId: current.id }, 'app subscription not cancelled');
            throw refusal(cancelled, 'cancel');
          }
          request.log.info({ subscriptionId: current.id, status: cancelled.status }, 'app subscription cancelled; Free when the platform confirms');
          const status = SUBSCRIPTION_STATUSES.find((s): s is SubscriptionStatus => s === cancelled.status) ?? 'CANCELLED';
          return { confirmationUrl: null, subscriptionId: current.id, status };
        }
        const result = await createPlatformSubscription(
          credentials,
          { name: PLAN_NAMES[plan], price, returnUrl: embeddedAdminUrl(shop.domain, config.platformAppKey, config.publicUrl), test: config.billingTest },
          writeOptions,
        );
        if (!result.ok) {
          if (result.reason === 'unauthorized') await markConnectionBroken(ctx.db, shop.id, result.message, ctx.now());
          request.log.warn({ reason: result.reason, detail: result.message }, 'app subscription not created');
          throw refusal(result, 'create');
        }
        await recordPendingSubscription(ctx.db, shop.id, { id: result.id, plan, test: config.billingTest });
        request.log.info({ subscriptionId: result.id, plan }, 'app subscription created, pending approval');
        return { confirmationUrl: result.confirmationUrl, subscriptionId: result.id, status: 'PENDING' as const };
      },
    }),
  ];
}
