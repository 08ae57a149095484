/**
 * `refunds/create` and `orders/cancelled` (CONTRACT part three "Refunds and repairs"): each
 * validates its payload (400 at the payload's path), then claims the delivery and gives back in
 * one unit of work (give-back.ts). As `orders/paid`, without the shop row's lock
 * (`writeShopUnlocked`): give-backs queue on the order's row, not the shop's. The answer says
 * what happened:
 * - `{ duplicate: true }`: this webhook id, or this refund (cancellation) under any webhook id,
 *   was already given back;
 * - `{ duplicate: false, ignored: 'unknown_order' }`: the service never recorded the order
 *   (nothing changes, logged);
 * - `{ duplicate: false, givenBack: { giftUnits, budgetUnits, redemptions } }` otherwise.
 */
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { parseOr400 } from '../http/errors.ts';
import { claimDelivery } from '../platform-webhooks/deliveries.ts';
import type { Delivery, TopicHandler, TopicOutcome } from '../platform-webhooks/topic-handler.ts';
import { writeShopUnlocked } from '../shops/unit-of-work.ts';
import { giveBackIn } from './give-back.ts';
import { cancelPayloadSchema, refundPayloadSchema } from './payloads.ts';
import type { GiveBackRequest } from './payloads.ts';

function giveBackTopic(schema: z.ZodType<GiveBackRequest, unknown>): TopicHandler {
  return async (ctx: AppContext, delivery: Delivery): Promise<TopicOutcome> => {
    const request = parseOr400(schema, delivery.payload, `Invalid ${delivery.topic} payload`);
    const result = await writeShopUnlocked(ctx, delivery.shop, async (uow) => {
      if (!(await claimDelivery(uow.tx, uow.shop.id, delivery.webhookId, delivery.topic))) return undefined;
      return giveBackIn(uow, request, ctx.now());
    });
    if (result === undefined || result.outcome === 'duplicate') return { duplicate: true };
    if (result.outcome === 'unknown_order') {
      delivery.log.info({ orderId: request.orderId }, 'give-back for an order the service never recorded; nothing changed');
      return { duplicate: false, ignored: 'unknown_order' };
    }
    const { giftUnits, budgetUnits, redemptions } = result;
    // Repairs the delivery overtook give back budget units and redemptions without gift units: logged too.
    if (giftUnits + budgetUnits + redemptions > 0) delivery.log.info({ orderId: request.orderId, giftUnits, budgetUnits, redemptions }, 'order gave back');
    return { duplicate: false, givenBack: { giftUnits, budgetUnits, redemptions } };
  };
}

/** The give-back topics, by `X-Shopify-Topic`; joined to PLATFORM_TOPICS. */
export const GIVE_BACK_TOPICS: ReadonlyArray<[string, TopicHandler]> = [
  ['refunds/create', giveBackTopic(refundPayloadSchema)],
  ['orders/cancelled', giveBackTopic(cancelPayloadSchema)],
];
