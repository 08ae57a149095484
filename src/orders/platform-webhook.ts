/**
 * The platform's order webhook (CONTRACT "Platform orders"): `POST /webhooks/platform/orders`,
 * shop named by `X-Platform-Shop-Domain`, body signed in `X-Platform-Hmac-Sha256`. The
 * signature covers the exact bytes sent, so this plugin keeps the raw body (its own content
 * type parser, encapsulated: the rest of the app still parses JSON as usual) and parses
 * JSON only after the signature checks out.
 */
import { isStorableText } from '@gcrs/engine';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { BodyBudget } from '../http/body-budget.ts';
import { keepSignedRawBody, signedBodyOf } from '../http/signed-body.ts';
import { getShopByDomain } from '../shops/store.ts';
import { receiveOrder } from './receive.ts';

export const PLATFORM_ORDERS_PATH = '/webhooks/platform/orders';
export const SHOP_DOMAIN_HEADER = 'x-platform-shop-domain';
export const SIGNATURE_HEADER = 'x-platform-hmac-sha256';

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new ApiError('bad_request', { error: 'Malformed JSON body', issue: (error as Error).message });
  }
}

/**
 * Registers the webhook route; without PLATFORM_APP_SECRET (or its alias PLATFORM_WEBHOOK_SECRET) it is not registered at all,
 * so the path answers 404 like any unknown route.
 *
 * @example
 *   await app.register(platformOrderWebhook(ctx, createBodyBudget(ctx.config.unverifiedBodyBytes)));
 */
export function platformOrderWebhook(ctx: AppContext, unverifiedBodies: BodyBudget) {
  return async (scope: FastifyInstance): Promise<void> => {
    const secret = ctx.config.platformAppSecret;
    if (secret === undefined) return;
    // Signature first (http/signed-body.ts): nothing of an unsigned request is read, not even
    // which shop it names, and its body is held only inside the unverified-body budget.
    keepSignedRawBody(scope, { secret, header: SIGNATURE_HEADER, budget: unverifiedBodies });

    scope.post(PLATFORM_ORDERS_PATH, async (request) => {
      const raw = signedBodyOf(request);
      const domain = request.headers[SHOP_DOMAIN_HEADER];
      const shop = typeof domain === 'string' && isStorableText(domain) ? await getShopByDomain(ctx.db, domain.trim().toLowerCase()) : undefined;
      if (!shop) throw notFound('Shop');
      request.log = request.log.child({ shopId: shop.id, platformWebhook: true });
      return receiveOrder(ctx, shop, parseJson(raw));
    });
  };
}
