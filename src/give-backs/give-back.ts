/**
 * Refunds and cancellations give back what an order took (CONTRACT part three "Refunds and
 * repairs"; docs/events-orders-analytics.md "Refunds and cancellations"), in one transaction
 * with the webhook's delivery claim:
 * - budget units, by the refunded gift units, to exactly the counters intake (or a repair)
 *   charged (`orders.budget_charges`); units intake could not grant (over budget) are refunded first;
 * - a per-customer redemption of a rule, when the order no longer carries a gift unit of it;
 * - analytics: gift units refunded and orders no longer carrying a gift, on the refund's day
 *   (the order stays on its own).
 * Exact under concurrency: every give-back of an order first locks the order row, so give-backs
 * of one order queue and each sees what the ones before gave back (`order_give_backs`), and the
 * row of a refund already given back (any webhook id) makes it a duplicate. Counters are then
 * locked in intake's order (budget counters by key, redemptions by rule, daily totals, campaign
 * rows, the shop row last), so a give-back and an intake never deadlock, and each only lowers a
 * counter by what that order added to it, floored at zero.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { GIFT_ATTRIBUTE, numericIdOf } from '@gcrs/engine';
import { localDateOf } from '../analytics/calendar.ts';
import { campaigns, orderGiveBacks, orderRepairs, orders, redemptions, rules } from '../db/schema.ts';
import { discountSyncEvents } from '../campaigns/transitions.ts';
import { redemptionsSync } from '../redemptions/limit-sync.ts';
import { cancelOpenRepairs } from '../repairs/cancel.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import { giveBackBudgets, recordRefundRollups } from './counters.ts';
import { giftUnitsOf, keyOf, refundedUnits, refundsOpenRepair, repairedLine, sorted } from './gift-units.ts';
import type { RepairedGift, StoredLine } from './gift-units.ts';
import type { GiveBackRequest } from './payloads.ts';

export type GiveBackOutcome =
  | { outcome: 'unknown_order' }
  | { outcome: 'duplicate' }
  | { outcome: 'given_back'; giftUnits: number; budgetUnits: number; redemptions: number };

/**
 * Gives back what `request` refunds or cancels of a recorded order, inside the caller's unit
 * of work (which holds the delivery's claim; `writeShopUnlocked`, as intake). An order the
 * service never recorded, or a refund already given back, changes nothing.
 *
 * @example
 *   await writeShopUnlocked(ctx, shop, (uow) => giveBackIn(uow, { kind: 'cancel', orderId: '1001', at: new Date() }, new Date()));
 */
export async function giveBackIn(uow: ShopUnitOfWork, request: GiveBackRequest, now: Date): Promise<GiveBackOutcome> {
  const { tx, shop } = uow;
  const [order] = await tx
    .select({ customerId: orders.customerId, payload: orders.payload, budgetCharges: orders.budgetCharges })
    .from(orders)
    .where(and(eq(orders.shopId, shop.id), eq(orders.id, request.orderId)))
    .for('update');
  if (!order) return { outcome: 'unknown_order' };
  const ref = request.kind === 'cancel' ? 'cancel' : `refund:${request.refundId}`;
  const previous = await tx
    .select({ ref: orderGiveBacks.ref, lines: orderGiveBacks.lines })
    .from(orderGiveBacks)
    .where(and(eq(orderGiveBacks.shopId, shop.id), eq(orderGiveBacks.orderId, request.orderId)));
  if (previous.some((row) => row.ref === ref)) return { outcome: 'duplicate' };

  // Repairs this request overtakes (repairs/cancel.ts): a cancellation ends every open one; a
  // refund the one whose gift it refunds, if the edit may have put it on the order. What they give
  // back is in the answer (not in `order_give_backs.budget_units`: their charges leave
  // `orders.budget_charges` instead, and the row keeps counting only what the order's lines returned).
  const overtaken = await cancelOpenRepairs(uow, request.orderId, request.kind === 'cancel' ? () => true : (repair) => refundsOpenRepair(request, repair), now);

  const orderLines = ((order.payload.lines ?? []) as StoredLine[]).filter((line) => line && typeof line.quantity === 'number');
  // Gifts a committed repair added (docs/repairs.md): the order carries them as gift lines of their rule.
  const repaired: RepairedGift[] = (
    await tx
      .select({ campaignId: orderRepairs.campaignId, ruleId: orderRepairs.ruleId, variantId: orderRepairs.variantId, quantity: orderRepairs.quantity, lineItemId: orderRepairs.lineItemId })
      .from(orderRepairs)
      .where(and(eq(orderRepairs.shopId, shop.id), eq(orderRepairs.orderId, request.orderId), eq(orderRepairs.status, 'repaired')))
  )
    .map((row) => ({ campaignId: row.campaignId, ruleId: row.ruleId, variant: numericIdOf(row.variantId) ?? row.variantId, quantity: row.quantity, lineItemId: row.lineItemId }))
    .sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  const named = [
    ...new Set([...orderLines.map((line) => line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim()), ...repaired.map((row) => row.campaignId)].filter((id): id is string => !!id)),
  ];
  const known = new Set(
    named.length === 0
      ? []
      : (await tx.select({ id: campaigns.id }).from(campaigns).where(and(eq(campaigns.shopId, shop.id), inArray(campaigns.id, named)))).map((row) => row.id),
  );
  const carried = giftUnitsOf([...orderLines, ...repaired.map(repairedLine)], known);
  const returned = new Map<string, number>();
  for (const row of previous) for (const line of row.lines) returned.set(keyOf(line.campaignId, line.ruleId), (returned.get(keyOf(line.campaignId, line.ruleId)) ?? 0) + line.units);
  const left = (key: string) => Math.max(0, (carried.get(key)?.units ?? 0) - (returned.get(key) ?? 0));

  // What this request gives back, per (campaign, rule): never more than the order still carries.
  const asked = request.kind === 'cancel' ? new Map([...carried].map(([key]) => [key, left(key)])) : refundedUnits(request, known, repaired, left);
  const given = sorted(
    [...asked].flatMap(([key, units]) => {
      const entry = carried.get(key);
      const take = Math.min(units, left(key));
      return entry && take > 0 ? [{ campaignId: entry.campaignId, ruleId: entry.ruleId, units: take }] : [];
    }),
    (entry) => keyOf(entry.campaignId, entry.ruleId),
  );
  const day = localDateOf(request.at ?? now, shop.timezone);
  const record = (budgetUnits: number) => tx.insert(orderGiveBacks).values({ shopId: shop.id, orderId: request.orderId, ref, lines: given, budgetUnits, day });
  if (given.length === 0) {
    // Recorded even when it gives nothing (a refund of regular lines): its redelivery is a duplicate all the same.
    await record(0);
    return { outcome: 'given_back', giftUnits: 0, budgetUnits: overtaken.budgetUnits, redemptions: overtaken.redemptions };
  }

  // Rules as intake attributed them: a rule of this shop, of the campaign the line names.
  const ruleIds = [...new Set(given.flatMap((entry) => (entry.ruleId ? [entry.ruleId] : [])))];
  const ruleCampaign = new Map(
    ruleIds.length === 0
      ? []
      : (await tx.select({ id: rules.id, campaignId: rules.campaignId }).from(rules).where(and(eq(rules.shopId, shop.id), inArray(rules.id, ruleIds)))).map(
          (row) => [row.id, row.campaignId] as const,
        ),
  );
  const budget = await giveBackBudgets(tx, shop.id, order.budgetCharges ?? [], given, carried, returned);
  const redeemedNoMore = given.filter(
    (entry) => entry.ruleId !== null && ruleCampaign.get(entry.ruleId) === entry.campaignId && left(keyOf(entry.campaignId, entry.ruleId)) === entry.units,
  );
  let redemptionCount = 0;
  if (order.customerId && redeemedNoMore.length > 0) {
    for (const entry of redeemedNoMore) {
      const row = and(eq(redemptions.shopId, shop.id), eq(redemptions.customerId, order.customerId), eq(redemptions.ruleId, entry.ruleId ?? ''));
      const lowered = await tx
        .update(redemptions)
        .set({ count: sql`greatest(${redemptions.count} - 1, 0)` })
        .where(row)
        .returning({ count: redemptions.count });
      redemptionCount += lowered.length;
      // No redemption left: no record (GET /redemptions lists none, as for a customer who never redeemed).
      if (lowered[0]?.count === 0) await tx.delete(redemptions).where(and(row, eq(redemptions.count, 0)));
    }
    uow.enqueue(...(await redemptionsSync(tx, shop.id, order.customerId, redeemedNoMore.map((entry) => entry.ruleId ?? ''))).events);
  }

  await recordRefundRollups(tx, shop.id, day, given, carried, left);
  await record(budget.units);

  if (budget.reopened.length > 0) {
    // As intake does when it spends a budget: the re-opened rules come back in GET /rules and the
    // checkout configuration (the sync rewrites the shop's whole configuration).
    uow.enqueue(...discountSyncEvents(budget.reopened));
    uow.touchRules();
  }
  const giftUnits = given.reduce((sum, entry) => sum + entry.units, 0);
  return { outcome: 'given_back', giftUnits, budgetUnits: budget.units + overtaken.budgetUnits, redemptions: redemptionCount + overtaken.redemptions };
}
