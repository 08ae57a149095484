/**
 * Which gifts a paid order is missing (CONTRACT part three "Refunds and repairs"; docs/repairs.md):
 * the shop's live rules — exactly the storefront's payload, so spent budgets and sold-out gifts
 * are already left out — evaluated by the engine on the order's lines (gift lines never count
 * toward a condition) with the order's currency, country, customer and discount codes. Each
 * matched `auto_add` rule the order has no gift line of gets an `order_repairs` row and an
 * `order_repair` outbox job in one transaction; the row's primary key (shop, order, rule) makes
 * every later delivery of the same order plan nothing. A matched `customer_choice` rule is
 * listed as `skipped_customer_choice`: the shopper never chose, and the service will not choose
 * for them.
 */
import { compileRules, GIFT_ATTRIBUTE, planCart } from '@gcrs/engine';
import type { EvaluationContext } from '@gcrs/engine';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { orderRepairs } from '../db/schema.ts';
import { customerRedemptions } from '../evaluate/customer-redemptions.ts';
import { writeOutbox } from '../outbox/enqueue.ts';
import { shopStillThere } from './shop-lock.ts';
import type { Order } from '../orders/schema.ts';
import { repairMissingGiftsOf } from '../shops/settings.ts';
import type { ShopRecord } from '../shops/store.ts';

/** What the platform's order payload says beyond CONTRACT's Order, for the conditions that read it. */
export type OrderAudience = { country?: string; customerTags: string[]; discountCodes: string[] };

const NONE: OrderAudience = { customerTags: [], discountCodes: [] };

const audienceSchema = z.looseObject({
  shipping_address: z.looseObject({ country_code: z.string().nullish() }).nullish(),
  billing_address: z.looseObject({ country_code: z.string().nullish() }).nullish(),
  customer: z.looseObject({ tags: z.string().nullish() }).nullish(),
  discount_codes: z.array(z.looseObject({ code: z.string() })).nullish(),
});

/**
 * The country (shipping, else billing), customer tags (the platform's comma-separated text) and
 * discount codes of an `orders/paid` payload. Anything unreadable is left out, never a 400: the
 * order itself was already accepted, and a condition on what is missing fails closed.
 *
 * @example orderAudience({ shipping_address: { country_code: 'DE' }, customer: { tags: 'vip, b2b' } }); // { country: 'DE', customerTags: ['vip', 'b2b'], discountCodes: [] }
 */
export function orderAudience(payload: unknown): OrderAudience {
  const parsed = audienceSchema.safeParse(payload);
  if (!parsed.success) return NONE;
  const { shipping_address: shipping, billing_address: billing, customer, discount_codes: codes } = parsed.data;
  const country = shipping?.country_code ?? billing?.country_code ?? undefined;
  return {
    ...(country ? { country } : {}),
    customerTags: (customer?.tags ?? '').split(',').map((tag) => tag.trim()).filter((tag) => tag !== ''),
    discountCodes: (codes ?? []).map((code) => code.code),
  };
}

/**
 * The engine's context for an order. The market handle is not in the platform's order payload:
 * only the country is known, so a `market.handle_in` condition does not match (no gift the
 * checkout would not have given).
 */
export function orderContext(order: Order, audience: OrderAudience, collections: Record<string, string[]> | undefined): EvaluationContext {
  return {
    cart: {
      currency: order.currency,
      lines: order.lines.map((line) => ({ productId: line.productId, variantId: line.variantId, quantity: line.quantity, price: line.price, attributes: line.attributes })),
      discountCodes: audience.discountCodes,
    },
    customer: order.customerId ? { id: order.customerId, loggedIn: true, tags: audience.customerTags } : null,
    market: audience.country === undefined ? null : { handle: '', country: audience.country },
    ...(collections === undefined ? {} : { collections }),
    // Experiments: the order's customer (else the order) stands for the visitor, so the variant is stable per customer.
    visitorId: order.customerId ?? `order-${order.id}`,
  };
}

export type PlannedRepair = { ruleId: string; campaignId: string; variantId: string; quantity: number; status: 'pending' | 'skipped_customer_choice' };

/** The gifts the order lacks, as the engine plans them for this context. */
export function missingGifts(rules: ReturnType<typeof compileRules>, context: EvaluationContext, options: Parameters<typeof planCart>[2]): PlannedRepair[] {
  const carried = new Set(context.cart.lines.map((line) => line.attributes?.[GIFT_ATTRIBUTE.ruleId]?.trim()).filter((id) => id !== undefined && id !== ''));
  const planned: PlannedRepair[] = [];
  for (const operation of planCart(rules, context, options).operations) {
    if (operation.type === 'add') {
      const ruleId = operation.attributes[GIFT_ATTRIBUTE.ruleId] ?? '';
      const campaignId = operation.attributes[GIFT_ATTRIBUTE.campaignId] ?? '';
      // A resized repeatable gift is an add for a rule the order already carries: not missing.
      if (ruleId === '' || carried.has(ruleId)) continue;
      planned.push({ ruleId, campaignId, variantId: operation.variantId, quantity: operation.quantity, status: 'pending' });
    } else if (operation.type === 'choose' && !carried.has(operation.ruleId)) {
      const first = operation.options[0];
      if (first) planned.push({ ruleId: operation.ruleId, campaignId: operation.campaignId, variantId: first.variantId, quantity: first.quantity, status: 'skipped_customer_choice' });
    }
  }
  return planned;
}

/**
 * Plans the repairs of an order that intake accepted; returns the rows this call created (none
 * on a redelivery). Nothing when the shop's `checkout.repairMissingGifts` is off.
 *
 * @example
 *   await planRepairs(ctx, shop, order, orderAudience(delivery.payload)); // [{ ruleId: 'rul_1', status: 'pending', … }]
 */
export async function planRepairs(ctx: AppContext, shop: ShopRecord, order: Order, audience: OrderAudience): Promise<PlannedRepair[]> {
  if (!repairMissingGiftsOf(shop.settings)) return [];
  const payload = await ctx.rulesCache.payload(shop, 'storefront');
  if (payload === undefined || payload.rules.length === 0) return [];
  const rules = compileRules(payload);
  const context = orderContext(order, audience, payload.collections);
  const redemptions = await customerRedemptions(ctx.db, shop.id, rules, context);
  const planned = missingGifts(rules, context, { now: ctx.now(), redemptions });
  if (planned.length === 0) return [];
  return ctx.db.transaction(async (tx) => {
    // The shop row first (KEY SHARE): a shop/redact that deleted it meanwhile leaves nothing to
    // plan for, and one under way waits for this to commit, then deletes what it wrote.
    if (!(await shopStillThere(tx, shop.id))) return [];
    const created = await tx
      .insert(orderRepairs)
      .values(planned.map((repair) => ({ shopId: shop.id, orderId: order.id, ...repair })))
      .onConflictDoNothing()
      .returning({ ruleId: orderRepairs.ruleId, status: orderRepairs.status });
    const fresh = new Set(created.map((row) => row.ruleId));
    const pending = created.filter((row) => row.status === 'pending');
    await writeOutbox(tx, shop.id, pending.map((row) => ({ kind: 'order_repair', payload: { orderId: order.id, ruleId: row.ruleId } })));
    return planned.filter((repair) => fresh.has(repair.ruleId));
  });
}
