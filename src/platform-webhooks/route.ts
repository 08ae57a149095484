/**
 * `POST /webhooks/platform` (CONTRACT part two "Platform webhooks"): the platform's webhooks as
 * it sends them. In order, each refusal before any effect:
 * 1. `X-Shopify-Hmac-Sha256` must be the base64 HMAC-SHA256 of the raw body bytes with
 *    PLATFORM_APP_SECRET (constant-time compare) → else 401; nothing unsigned is read further
 *    (http/signed-body.ts: a missing or ill-formed header before the body is read, a body inside
 *    the unverified-body budget, hashed as it streams in);
 * 2. `X-Shopify-Shop-Domain`, `X-Shopify-Topic`, `X-Shopify-Webhook-Id` must be present → else 400;
 * 3. a domain no shop has → 200 `{ ok: true, ignored: "unknown_shop" }` and a warning in the log
 *    (the platform retries anything else for 48 hours, for a shop that will not appear);
 * 4. a topic the service does not handle → 200 `{ ok: true, ignored: "unknown_topic" }`, logged;
 * 5. the body must be JSON (large ids kept exact) and a valid payload of its topic → else 400;
 * 6. the topic's effect, at most once per webhook id → 200 `{ ok: true, duplicate }` (a give-back
 *    topic says more: give-backs/topics.ts); a shop
 *    that shop/redact deleted while the delivery was under way → 200 `unknown_shop`, as in 3.
 * Without PLATFORM_APP_SECRET the route does not exist (404).
 */
import { textSchema } from '@gcrs/engine';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { sqlStateOf } from '../db/sql-state.ts';
import { ApiError, parseOr400 } from '../http/errors.ts';
import type { BodyBudget } from '../http/body-budget.ts';
import { keepSignedRawBody, signedBodyOf } from '../http/signed-body.ts';
import { getShop, getShopByDomain } from '../shops/store.ts';
import { parseLosslessJson } from './lossless-json.ts';
import { PLATFORM_TOPICS } from './topics.ts';

export const PLATFORM_WEBHOOKS_PATH = '/webhooks/platform';

/**
 * The platform sends a product with all its variants (up to 2048, ~0.8 KB each in the REST
 * shape): well past the 1 MiB other routes take. A 413 here would be retried for 48 hours and
 * then lost, so this route takes up to 8 MiB (or BODY_LIMIT_BYTES if larger).
 */
export const PLATFORM_WEBHOOK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** The platform's header names (Node gives them lower case). */
export const WEBHOOK_HEADERS = {
  hmac: 'x-shopify-hmac-sha256',
  shopDomain: 'x-shopify-shop-domain',
  topic: 'x-shopify-topic',
  webhookId: 'x-shopify-webhook-id',
  apiVersion: 'x-shopify-api-version',
  triggeredAt: 'x-shopify-triggered-at',
  eventId: 'x-shopify-event-id',
} as const;

const headerText = textSchema.trim().min(1).max(255);
const headersSchema = z.object({
  [WEBHOOK_HEADERS.shopDomain]: headerText.toLowerCase(),
  [WEBHOOK_HEADERS.topic]: headerText.toLowerCase(),
  [WEBHOOK_HEADERS.webhookId]: headerText,
  [WEBHOOK_HEADERS.apiVersion]: headerText.optional(),
});

/**
 * The shop row is gone under a delivery in flight (shop/redact committed first): the claim's
 * foreign key fails (23503), or writeShop's lock finds no shop (404).
 */
function shopWentAway(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'not_found' && error.body.error === 'Shop not found';
  return sqlStateOf(error) === FOREIGN_KEY_VIOLATION;
}
const FOREIGN_KEY_VIOLATION = '23503';

function parseBody(raw: Buffer): unknown {
  try {
    return parseLosslessJson(raw.toString('utf8'));
  } catch (error) {
    throw new ApiError('bad_request', { error: 'Malformed JSON body', issue: (error as Error).message });
  }
}

/**
 * Registers the route; without PLATFORM_APP_SECRET it is not registered at all.
 *
 * @example
 *   await app.register(platformWebhooks(ctx, createBodyBudget(ctx.config.unverifiedBodyBytes)));
 */
export function platformWebhooks(ctx: AppContext, unverifiedBodies: BodyBudget) {
  return async (scope: FastifyInstance): Promise<void> => {
    const secret = ctx.config.platformAppSecret;
    if (secret === undefined) return;
    keepSignedRawBody(scope, { secret, header: WEBHOOK_HEADERS.hmac, budget: unverifiedBodies });

    const bodyLimit = Math.max(ctx.config.bodyLimitBytes, PLATFORM_WEBHOOK_BODY_LIMIT_BYTES);
    scope.post(PLATFORM_WEBHOOKS_PATH, { bodyLimit }, async (request) => {
      const raw = signedBodyOf(request);
      const headers = parseOr400(headersSchema, request.headers, 'Invalid webhook headers');
      const topic = headers[WEBHOOK_HEADERS.topic];
      const webhookId = headers[WEBHOOK_HEADERS.webhookId];
      const domain = headers[WEBHOOK_HEADERS.shopDomain];
      const log = request.log.child({ platformWebhook: { topic, webhookId, apiVersion: headers[WEBHOOK_HEADERS.apiVersion] } });

      const shop = await getShopByDomain(ctx.db, domain);
      if (!shop) {
        log.warn({ shopDomain: domain }, 'platform webhook for a shop domain no shop has; ignored');
        return { ok: true as const, ignored: 'unknown_shop' as const };
      }
      request.log = log.child({ shopId: shop.id });
      const handler = PLATFORM_TOPICS.get(topic);
      if (!handler) {
        request.log.info('platform webhook topic not handled; ignored');
        return { ok: true as const, ignored: 'unknown_topic' as const };
      }
      try {
        const outcome = await handler(ctx, { shop, topic, webhookId, payload: parseBody(raw), log: request.log });
        return typeof outcome === 'boolean' ? { ok: true as const, duplicate: outcome } : { ok: true as const, ...outcome };
      } catch (error) {
        if (!shopWentAway(error) || (await getShop(ctx.db, shop.id))) throw error;
        // shop/redact deleted the shop between the lookup and the effect: as if it was never found.
        request.log.warn({ shopDomain: domain }, 'platform webhook for a shop deleted meanwhile; ignored');
        return { ok: true as const, ignored: 'unknown_shop' as const };
      }
    });
  };
}
