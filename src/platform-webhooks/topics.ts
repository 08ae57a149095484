/**
 * What each platform webhook topic does (CONTRACT part two "Platform webhooks"; the table in
 * docs/platform-webhooks.md). Every handler validates its payload first (a 400 names the
 * payload's own path), then claims the delivery id in the transaction of its effect
 * (deliveries.ts). The answer is `true` when the delivery changed nothing because it, or the
 * order it carries, was already processed.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { z } from 'zod';
import { COMPLIANCE_TOPICS } from '../compliance/topics.ts';
import { GIVE_BACK_TOPICS } from '../give-backs/topics.ts';
import { applySubscriptionUpdate } from '../billing/subscriptions.ts';
import { APP_SUBSCRIPTIONS_UPDATE, appSubscriptionUpdateSchema } from '../billing/webhook.ts';
import { parseOr400 } from '../http/errors.ts';
import { recordOrderIn } from '../orders/intake.ts';
import { acceptedOrder } from '../orders/receive.ts';
import { orderAudience, planRepairs } from '../repairs/plan.ts';
import { writeShop, writeShopUnlocked } from '../shops/unit-of-work.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import { applyInventoryLevel, applyProduct, applyProductDelete } from './catalog-topics.ts';
import { claimDelivery } from './deliveries.ts';
import type { TopicHandler } from './topic-handler.ts';
import {
  platformInventoryLevelSchema,
  platformOrderSchema,
  platformProductDeleteSchema,
  platformProductSchema,
  platformShopSchema,
} from './payloads.ts';
import { uninstallShop } from './uninstall.ts';

const invalid = (topic: string) => `Invalid ${topic} payload`;

/** A topic whose effect is a write of the shop: one unit of work, the delivery claimed first. */
function shopWrite<S extends z.ZodType>(schema: S, apply: (uow: ShopUnitOfWork, input: z.output<S>, log: Logger) => Promise<unknown>): TopicHandler {
  return async (ctx, delivery) => {
    const input = parseOr400(schema, delivery.payload, invalid(delivery.topic));
    return writeShop(ctx, delivery.shop.id, async (uow) => {
      if (!(await claimDelivery(uow.tx, uow.shop.id, delivery.webhookId, delivery.topic))) return true;
      await apply(uow, input, delivery.log);
      return false;
    });
  };
}

/**
 * `orders/paid` feeds the order intake of CONTRACT "Platform orders" in one transaction with
 * the delivery's claim: a unit of work without the shop row's lock, as orders of one shop need
 * not queue on its row (the orders primary key already makes intake idempotent under
 * concurrency; shops/unit-of-work.ts `writeShopUnlocked`). Then,
 * on every delivery, the order's missing gifts are planned (src/repairs/plan.ts): once per
 * (order, rule) by their own key, so a delivery that failed after intake plans on its retry.
 */
const ordersPaid: TopicHandler = async (ctx, delivery) => {
  const order = parseOr400(platformOrderSchema, delivery.payload, invalid(delivery.topic));
  const result = await writeShopUnlocked(ctx, delivery.shop, async (uow) => {
    if (!(await claimDelivery(uow.tx, uow.shop.id, delivery.webhookId, delivery.topic))) return undefined;
    const recorded = await recordOrderIn(uow, order);
    // A refused order (another currency) throws here: its claim rolls back with it.
    acceptedOrder(recorded);
    return recorded;
  });
  await planRepairs(ctx, delivery.shop, order, orderAudience(delivery.payload));
  return result === undefined ? true : acceptedOrder(result).duplicate;
};

/** The topics the service subscribes to, by the `X-Shopify-Topic` value. */
export const PLATFORM_TOPICS: ReadonlyMap<string, TopicHandler> = new Map<string, TopicHandler>([
  ['orders/paid', ordersPaid],
  ['products/create', shopWrite(platformProductSchema, applyProduct)],
  ['products/update', shopWrite(platformProductSchema, applyProduct)],
  ['products/delete', shopWrite(platformProductDeleteSchema, (uow, input) => applyProductDelete(uow, input.id))],
  [
    'inventory_levels/update',
    shopWrite(platformInventoryLevelSchema, (uow, input) =>
      applyInventoryLevel(uow, { inventoryItemId: input.inventory_item_id, locationId: input.location_id, available: input.available }),
    ),
  ],
  ['app/uninstalled', shopWrite(platformShopSchema, uninstallShop)],
  ...COMPLIANCE_TOPICS,
  ...GIVE_BACK_TOPICS,
  [
    APP_SUBSCRIPTIONS_UPDATE,
    shopWrite(appSubscriptionUpdateSchema, async (uow, update, log) => {
      const outcome = await applySubscriptionUpdate(uow, update, log);
      log.info({ subscriptionId: update.id, status: update.status, outcome }, 'app subscription update');
    }),
  ],
]);
