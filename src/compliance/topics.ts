/**
 * The three compliance topics (CONTRACT part three "Compliance webhooks"; docs/compliance.md),
 * on the platform webhook route like every other topic: signature, headers and unknown shops
 * are the route's (401, 400, 200 `unknown_shop`); each handler validates its payload and acts
 * at most once per `X-Shopify-Webhook-Id`, synchronously, before the 200. Each runs as one unit
 * of work of the shop (shops/unit-of-work.ts): `shop/redact` under the shop's lock, the two
 * customer topics without it — they touch only the customer's rows, and a shop busy with its
 * own writes must not hold up an erasure the platform times.
 */
import { dataRequests } from '../db/schema.ts';
import { parseOr400 } from '../http/errors.ts';
import { claimDelivery } from '../platform-webhooks/deliveries.ts';
import type { TopicHandler } from '../platform-webhooks/topic-handler.ts';
import { writeShop, writeShopUnlocked } from '../shops/unit-of-work.ts';
import { exportCustomer, redactCustomer } from './customer-data.ts';
import { customerDataRequestSchema, customerRedactSchema, shopRedactSchema } from './payloads.ts';
import { redactShop } from './shop-redact.ts';

const invalid = (topic: string) => `Invalid ${topic} payload`;

/**
 * `customers/data_request`: the export is built and stored with the request in the delivery's
 * transaction. Another delivery of the same `data_request.id` (a new webhook id) keeps the
 * first export and answers `duplicate: true`.
 */
const customersDataRequest: TopicHandler = async (ctx, { shop, topic, webhookId, payload }) => {
  const input = parseOr400(customerDataRequestSchema, payload, invalid(topic));
  return writeShopUnlocked(ctx, shop, async ({ tx }) => {
    if (!(await claimDelivery(tx, shop.id, webhookId, topic))) return true;
    const now = ctx.now();
    const data = await exportCustomer(tx, shop, input.customer.id, input.orders_requested ?? [], now);
    const stored = await tx
      .insert(dataRequests)
      .values({ shopId: shop.id, id: input.data_request.id, customerId: input.customer.id, receivedAt: now, export: data })
      .onConflictDoNothing()
      .returning({ id: dataRequests.id });
    ctx.logger.info({ shopId: shop.id, dataRequestId: input.data_request.id, stored: stored.length > 0 }, 'customer data request recorded');
    return stored.length === 0;
  });
};

/** `customers/redact`: the customer's data removed or anonymised; a second request finds nothing left. */
const customersRedact: TopicHandler = async (ctx, { shop, topic, webhookId, payload }) => {
  const input = parseOr400(customerRedactSchema, payload, invalid(topic));
  return writeShopUnlocked(ctx, shop, async ({ tx }) => {
    if (!(await claimDelivery(tx, shop.id, webhookId, topic))) return true;
    const counts = await redactCustomer(tx, shop.id, input.customer.id, input.orders_to_redact ?? []);
    ctx.logger.info({ shopId: shop.id, counts }, 'customer redacted');
    return false;
  });
};

/**
 * `shop/redact`: the shop and all its rows deleted in one unit of work of the shop (its delivery
 * ids with it, so a redelivery finds no shop: 200 `unknown_shop`); after the commit every
 * instance forgets it (rules cache through `touchRules`, cached keys and credentials through the
 * shop version the unit of work bumps). A shop installed again since (live platform
 * connection) is kept and the delivery claimed, logged as a warning. A shop deleted meanwhile
 * makes writeShop answer 404, which the route answers 200 `unknown_shop`.
 */
const shopRedact: TopicHandler = async (ctx, { shop, topic, webhookId, payload }) => {
  parseOr400(shopRedactSchema, payload, invalid(topic));
  const result = await writeShop(ctx, shop.id, async (uow) => {
    const redaction = await redactShop(uow.tx, uow.shop.id);
    if (redaction.outcome === 'deleted') uow.touchRules();
    if (redaction.outcome === 'connected') return { ...redaction, claimed: await claimDelivery(uow.tx, shop.id, webhookId, topic) };
    return { ...redaction, claimed: true };
  });
  if (result.outcome === 'deleted') {
    ctx.logger.info({ shopId: shop.id, shopDomain: shop.domain, rows: result.rows }, 'shop redacted: every row of the shop deleted');
    return false;
  }
  if (result.outcome === 'connected') {
    ctx.logger.warn({ shopId: shop.id, shopDomain: shop.domain }, 'shop/redact for a shop whose app is installed again (live platform connection); nothing deleted');
    return !result.claimed;
  }
  return true;
};

/** The compliance topics, by `X-Shopify-Topic`; joined to PLATFORM_TOPICS. */
export const COMPLIANCE_TOPICS: ReadonlyArray<[string, TopicHandler]> = [
  ['customers/data_request', customersDataRequest],
  ['customers/redact', customersRedact],
  ['shop/redact', shopRedact],
];
