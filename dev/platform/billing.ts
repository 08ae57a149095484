/**
 * The stand-in platform's billing (Admin API 2025-10): `appSubscriptionCreate` and
 * `appSubscriptionCancel` answered with the platform's shapes, the subscriptions kept, and the
 * confirmation page the merchant is sent to. Approving or declining there moves the subscription
 * (approving also cancels the shop's previous active one, as the platform's STANDARD replacement
 * does) and sends `app_subscriptions/update` to the service, signed as the platform signs its
 * webhooks. A cancel answers CANCELLED at once and sends its `app_subscriptions/update` after
 * the answer, as the platform's webhooks come (`settled()` waits for it).
 *
 * @example
 *   const billing = createStandinBilling({ secret, deliver: (headers, body) => fetch(`${serviceUrl}/webhooks/platform`, { method: 'POST', headers, body }) });
 *   const platform = await startStandinPlatform({ families: [billing.family], routes: billing.routes });
 *   billing.origin = platform.url;
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { webhookHeaders } from './webhooks.ts';
import { answerRoot } from './selection.ts';
import type { Answer, Resolver } from './selection.ts';
import type { GraphqlAnswer, GraphqlCall, OperationFamily, StandinRoute } from './standin.ts';

export const CONFIRM_PATH = '/admin/charges/confirm_recurring_application_charge';
const STATUSES = new Set(['PENDING', 'ACCEPTED', 'ACTIVE', 'CANCELLED', 'DECLINED', 'EXPIRED', 'FROZEN']);

export type StandinSubscription = {
  /** `gid://shopify/AppSubscription/<n>`. */
  id: string;
  shopDomain: string;
  name: string;
  status: string;
  test: boolean;
  trialDays: number;
  returnUrl: string;
  /** The line items as the service sent them. */
  lineItems: unknown[];
  currency: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type WebhookDeliver = (headers: Record<string, string>, body: string) => Promise<unknown>;

export type StandinBillingOptions = {
  /** The app's secret: webhooks are signed with it (X-Shopify-Hmac-Sha256). */
  secret: string;
  /** Sends one signed webhook; without it nothing is sent. */
  deliver?: WebhookDeliver;
  /** The platform's clock (its `updated_at`). */
  now?: () => Date;
};

export type StandinBilling = {
  family: OperationFamily;
  routes: StandinRoute[];
  subscriptions: Map<string, StandinSubscription>;
  /** The stand-in's URL, which confirmation URLs are on; set it once the server listens. */
  origin: string;
  /** Moves a subscription (approve, decline, cancel, freeze …) and sends its webhook. */
  setStatus(id: string, status: string): Promise<void>;
  /** The confirmation URL's decision, as the page's buttons post it. */
  decide(id: string, decision: 'approve' | 'decline'): Promise<StandinSubscription>;
  /** Resolves once every webhook sent after an answer (a cancel's) was delivered. */
  settled(): Promise<void>;
};

/** The platform's `updated_at`: seconds, with an offset. */
const platformTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+00:00');

const shopGid = (domain: string) => `gid://shopify/Shop/${Number.parseInt(createHash('sha256').update(domain).digest('hex').slice(0, 10), 16)}`;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type CreateArgs = { name?: unknown; returnUrl?: unknown; lineItems?: unknown; test?: unknown; trialDays?: unknown };

/** The platform's userErrors for what it would refuse. */
function userErrorsOf(args: CreateArgs): Array<{ field: string[]; message: string }> {
  const errors: Array<{ field: string[]; message: string }> = [];
  if (typeof args.name !== 'string' || args.name.trim() === '') errors.push({ field: ['name'], message: 'Name can\'t be blank' });
  if (typeof args.returnUrl !== 'string' || !URL.canParse(args.returnUrl)) errors.push({ field: ['returnUrl'], message: 'Return url is invalid' });
  const items = Array.isArray(args.lineItems) ? args.lineItems : [];
  if (items.length === 0) errors.push({ field: ['lineItems'], message: 'Line items can\'t be blank' });
  for (const item of items) {
    const price = (item as { plan?: { appRecurringPricingDetails?: { price?: { amount?: unknown } } } }).plan?.appRecurringPricingDetails?.price;
    if (price !== undefined && !(Number(price.amount) > 0)) errors.push({ field: ['lineItems', 'plan', 'appRecurringPricingDetails', 'price'], message: 'Price must be greater than 0' });
  }
  if (args.trialDays !== undefined && args.trialDays !== null && !(Number.isInteger(args.trialDays) && Number(args.trialDays) >= 0)) {
    errors.push({ field: ['trialDays'], message: 'Trial days must be greater than or equal to 0' });
  }
  return errors;
}

function page(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Approve subscription</title></head><body>${html}</body></html>`);
}

/** @example const billing = createStandinBilling({ secret: 'app-secret', deliver }); */
export function createStandinBilling(options: StandinBillingOptions): StandinBilling {
  const now = options.now ?? (() => new Date());
  const subscriptions = new Map<string, StandinSubscription>();
  let next = 1;

  async function send(subscription: StandinSubscription): Promise<void> {
    if (!options.deliver) return;
    const body = JSON.stringify({
      app_subscription: {
        admin_graphql_api_id: subscription.id,
        name: subscription.name,
        status: subscription.status,
        admin_graphql_api_shop_id: shopGid(subscription.shopDomain),
        created_at: platformTime(subscription.createdAt),
        updated_at: platformTime(subscription.updatedAt),
        currency: subscription.currency,
        capped_amount: null,
      },
    });
    await options.deliver(webhookHeaders(options.secret, 'app_subscriptions/update', subscription.shopDomain, body, now()), body);
  }

  async function setStatus(id: string, status: string): Promise<void> {
    const subscription = subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    if (!STATUSES.has(status)) throw new Error(`no status ${status}`);
    subscription.status = status;
    subscription.updatedAt = now();
    await send(subscription);
  }

  async function decide(id: string, decision: 'approve' | 'decline'): Promise<StandinSubscription> {
    const subscription = subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    if (subscription.status !== 'PENDING') return subscription;
    if (decision === 'decline') {
      await setStatus(id, 'DECLINED');
      return subscription;
    }
    await setStatus(id, 'ACTIVE');
    for (const other of subscriptions.values()) {
      if (other !== subscription && other.shopDomain === subscription.shopDomain && other.status === 'ACTIVE') await setStatus(other.id, 'CANCELLED');
    }
    return subscription;
  }

  const confirmationUrl = (id: string) => `${billing.origin}${CONFIRM_PATH}?charge_id=${encodeURIComponent(id.split('/').pop() ?? '')}`;
  const byChargeId = (chargeId: string | null) => (chargeId ? subscriptions.get(`gid://shopify/AppSubscription/${chargeId}`) : undefined);

  const create = (args: CreateArgs, domain: string): Answer => {
    const userErrors = userErrorsOf(args);
    if (userErrors.length > 0) return { appSubscription: null, confirmationUrl: null, userErrors };
    const lineItems = args.lineItems as unknown[];
    const price = (lineItems[0] as { plan?: { appRecurringPricingDetails?: { price?: { currencyCode?: string } } } }).plan?.appRecurringPricingDetails?.price;
    const at = now();
    const subscription: StandinSubscription = {
      id: `gid://shopify/AppSubscription/${next++}`,
      shopDomain: domain,
      name: String(args.name),
      status: 'PENDING',
      test: args.test === true,
      trialDays: Number(args.trialDays ?? 0),
      returnUrl: String(args.returnUrl),
      lineItems,
      currency: price?.currencyCode ?? null,
      createdAt: at,
      updatedAt: at,
    };
    subscriptions.set(subscription.id, subscription);
    return {
      appSubscription: { id: subscription.id, name: subscription.name, status: subscription.status, test: subscription.test, trialDays: subscription.trialDays },
      confirmationUrl: confirmationUrl(subscription.id),
      userErrors: [],
    };
  };

  /** Webhooks sent after their answer; `settled()` waits for them. */
  const pending = new Set<Promise<void>>();
  const later = (work: Promise<void>) => {
    const tracked = work.finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  /** Only the shop's own subscription that is running (ACTIVE, or ACCEPTED, or FROZEN) can be cancelled. */
  const cancel = (args: { id?: unknown }, domain: string): Answer => {
    const subscription = typeof args.id === 'string' ? subscriptions.get(args.id) : undefined;
    if (!subscription || subscription.shopDomain !== domain) return { appSubscription: null, userErrors: [{ field: ['id'], message: 'Couldn\'t find RecurringApplicationCharge' }] };
    if (!['ACTIVE', 'ACCEPTED', 'FROZEN'].includes(subscription.status)) {
      return { appSubscription: null, userErrors: [{ field: ['id'], message: `Subscription is ${subscription.status.toLowerCase()} and cannot be cancelled` }] };
    }
    subscription.status = 'CANCELLED';
    subscription.updatedAt = now();
    // The platform answers first and sends the webhook afterwards; a failed delivery is its retry's business.
    later(new Promise<void>((resolve) => setImmediate(resolve)).then(() => send(subscription)).then(() => undefined, () => undefined));
    return { appSubscription: { id: subscription.id, name: subscription.name, status: subscription.status, test: subscription.test }, userErrors: [] };
  };

  const family: OperationFamily = {
    rootFields: ['appSubscriptionCreate', 'appSubscriptionCancel'],
    answer(call: GraphqlCall): GraphqlAnswer {
      const root: Record<string, Answer | Resolver> = {
        appSubscriptionCreate: (args) => create(args as CreateArgs, call.shop.domain),
        appSubscriptionCancel: (args) => cancel(args, call.shop.domain),
      };
      return answerRoot(call.operation, root, call.variables);
    },
  };

  const routes: StandinRoute[] = [
    {
      method: 'GET',
      path: CONFIRM_PATH,
      handle(request, _body, response) {
        const subscription = byChargeId(new URL(request.url ?? '/', 'http://standin').searchParams.get('charge_id'));
        if (!subscription) return page(response, 404, '<h1>This charge does not exist</h1>');
        const form = (decision: string, label: string) =>
          `<form method="post" action="${CONFIRM_PATH}"><input type="hidden" name="charge_id" value="${escape(subscription.id.split('/').pop() ?? '')}"><input type="hidden" name="decision" value="${decision}"><button type="submit">${label}</button></form>`;
        page(
          response,
          200,
          `<h1>Approve subscription</h1><p>${escape(subscription.shopDomain)}: <strong>${escape(subscription.name)}</strong>${subscription.test ? ' (test charge)' : ''}, ${escape(subscription.status)}</p>` +
            (subscription.status === 'PENDING' ? form('approve', 'Approve') + form('decline', 'Decline') : ''),
        );
      },
    },
    {
      method: 'POST',
      path: CONFIRM_PATH,
      async handle(_request, body, response) {
        const form = new URLSearchParams(body.toString('utf8'));
        const subscription = byChargeId(form.get('charge_id'));
        const decision = form.get('decision');
        if (!subscription || (decision !== 'approve' && decision !== 'decline')) return page(response, 400, '<h1>Unknown charge or decision</h1>');
        await decide(subscription.id, decision);
        const back = new URL(subscription.returnUrl);
        back.searchParams.set('charge_id', subscription.id.split('/').pop() ?? '');
        response.writeHead(303, { location: back.toString() });
        response.end();
      },
    },
  ];

  const settled = async (): Promise<void> => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  const billing: StandinBilling = { family, routes, subscriptions, origin: '', setStatus, decide, settled };
  return billing;
}
