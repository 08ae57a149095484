/**
 * Order intake (CONTRACT "Platform orders"), shared by the admin route and the signed
 * platform webhook. One transaction: the order row, redemption counts, both daily rollups
 * and the `order.converted` webhook commit together or not at all. The orders primary key
 * makes it idempotent under concurrency: the second of two identical orders, even sent at
 * the same instant, finds the first's row and changes nothing. Gift budgets are charged in
 * the same transaction (budgets/charge.ts); when the order spends one, the rules version is
 * bumped and a discount sync queued with it, and the unit of work evicts cached rules after
 * commit (shops/unit-of-work.ts, `writeShopUnlocked`: orders do not queue on the shop row).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { localDateOf } from '../analytics/calendar.ts';
import { addCampaignDayGifts } from '../analytics/store.ts';
import { addRuleDayOrders } from '../analytics/funnel.ts';
import type { Queryable } from '../db/database.ts';
import { campaigns, dailyTotals, orders, redemptions, rules } from '../db/schema.ts';
import { chargeBudgets, ruleUnitsOf } from '../budgets/charge.ts';
import { discountSyncEvents } from '../campaigns/transitions.ts';
import { redemptionsSync } from '../redemptions/limit-sync.ts';
import type { ShopRecord } from '../shops/store.ts';
import { writeShopUnlocked } from '../shops/unit-of-work.ts';
import type { ShopUnitOfWork, WriteShopDeps } from '../shops/unit-of-work.ts';
import { referencedIds, summarizeGiftLines } from './gift-lines.ts';
import type { Order } from './schema.ts';

/** Expected outcomes of intake: counted, already counted, or not in the shop's currency. */
export type IntakeResult = { ok: true; duplicate: boolean } | { ok: false; reason: 'currency_mismatch'; expected: string };

/** A limited rule the order's customer redeemed once more than `maxPerCustomer` allows. */
type OverLimit = { ruleId: string; campaignId: string; count: number; maxPerCustomer: number };

type Known = { campaignIds: Set<string>; ruleCampaign: Map<string, string> };

/** Which of the order's campaign and rule ids are this shop's (at most two small queries). */
async function knownIds(tx: Queryable, shopId: string, order: Order): Promise<Known> {
  const { campaignIds, ruleIds } = referencedIds(order.lines);
  const campaignRows =
    campaignIds.length === 0
      ? []
      : await tx
          .select({ id: campaigns.id })
          .from(campaigns)
          .where(and(eq(campaigns.shopId, shopId), inArray(campaigns.id, campaignIds)));
  const ruleRows =
    ruleIds.length === 0
      ? []
      : await tx
          .select({ id: rules.id, campaignId: rules.campaignId })
          .from(rules)
          .where(and(eq(rules.shopId, shopId), inArray(rules.id, ruleIds)));
  return {
    campaignIds: new Set(campaignRows.map((row) => row.id)),
    ruleCampaign: new Map(ruleRows.map((row) => [row.id, row.campaignId])),
  };
}

const byKey = <T>(entries: Iterable<[string, T]>): Array<[string, T]> =>
  // A fixed order of row locks: two orders touching the same rows can never deadlock.
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Records a completed order once. Returns `duplicate: true` when its id was already
 * recorded for the shop, and a currency mismatch as a value (the route turns it into a 400).
 *
 * @example
 *   const result = await recordOrder(ctx, shop, order); // { ok: true, duplicate: false }
 */
export async function recordOrder(deps: WriteShopDeps, shop: ShopRecord, order: Order): Promise<IntakeResult> {
  // Checked before a transaction is opened: a refused order costs no round trip.
  if (order.currency !== shop.currency) return { ok: false, reason: 'currency_mismatch', expected: shop.currency };
  return writeShopUnlocked(deps, shop, (uow) => recordOrderIn(uow, order));
}

/**
 * {@link recordOrder} inside a unit of work the caller holds, so that something else (the
 * platform webhook's delivery record) commits exactly with the order.
 *
 * @example
 *   await writeShopUnlocked(ctx, shop, (uow) => recordOrderIn(uow, order));
 */
export async function recordOrderIn(uow: ShopUnitOfWork, order: Order): Promise<IntakeResult> {
  const { tx, shop } = uow;
  // CONTRACT: amounts are in minor units of the shop's base currency; another currency's
  // amounts would corrupt every rollup they were added to.
  if (order.currency !== shop.currency) return { ok: false, reason: 'currency_mismatch', expected: shop.currency };
  const day = localDateOf(order.completedAt, shop.timezone);
  const known = await knownIds(tx, shop.id, order);
  const gifts = summarizeGiftLines(order.lines, (campaignId) => known.campaignIds.has(campaignId));
  const hasGifts = gifts.giftLines > 0;

  const inserted = await tx
    .insert(orders)
    .values({
      shopId: shop.id,
      id: order.id,
      customerId: order.customerId ?? null,
      completedAt: order.completedAt,
      day,
      currency: order.currency,
      total: order.total,
      giftLines: gifts.giftLines,
      budgetCharges: [],
      payload: { ...order, completedAt: order.completedAt.toISOString() },
    })
    .onConflictDoNothing()
    .returning({ id: orders.id });
  if (inserted.length === 0) return { ok: true as const, duplicate: true };

  // Budgets first of the counters: every intake locks its rows in the same order
  // (budget counters, redemptions, rollups, and last the shop row when a budget is spent).
  const budget = await chargeBudgets(tx, shop, order.completedAt, ruleUnitsOf(order.lines, known.ruleCampaign));
  if (budget.overBudget.length > 0 || budget.charged.length > 0) {
    // What a refund gives back later (give-backs/give-back.ts): exactly the counters charged here.
    const overBudget = budget.overBudget.length > 0 ? budget.overBudget : null;
    await tx.update(orders).set({ overBudget, budgetCharges: budget.charged }).where(and(eq(orders.shopId, shop.id), eq(orders.id, order.id)));
  }

  // One redemption per (customer, rule) per order, however many gift lines of the rule it
  // has; only for rules of this shop that belong to the campaign the line names.
  const redeemed = byKey(gifts.rules).filter(([ruleId, campaignId]) => known.ruleCampaign.get(ruleId) === campaignId);
  const overLimit: OverLimit[] = [];
  if (order.customerId && redeemed.length > 0) {
    const customerId = order.customerId;
    const counted = await tx
      .insert(redemptions)
      .values(
        redeemed.map(([ruleId, campaignId]) => ({
          shopId: shop.id,
          customerId,
          ruleId,
          campaignId,
          count: 1,
          lastRedeemedAt: order.completedAt,
        })),
      )
      .onConflictDoUpdate({
        target: [redemptions.shopId, redemptions.customerId, redemptions.ruleId],
        set: {
          count: sql`${redemptions.count} + 1`,
          campaignId: sql`excluded.campaign_id`,
          // Orders can arrive out of order; the latest completion wins.
          lastRedeemedAt: sql`greatest(${redemptions.lastRedeemedAt}, excluded.last_redeemed_at)`,
        },
      })
      // The count after this order, under the row's lock: concurrent orders of one customer
      // each see their own place in the sequence.
      .returning({ ruleId: redemptions.ruleId, count: redemptions.count });
    // Per-customer limits: the checkout function's copy of the counts (a customer metafield).
    const { limits, events } = await redemptionsSync(tx, shop.id, customerId, redeemed.map(([ruleId]) => ruleId));
    uow.enqueue(...events);
    for (const { ruleId, count } of counted) {
      const maxPerCustomer = limits.get(ruleId);
      // Given at checkout all the same (a checkout is checked, not reserved): reported like over-budget units.
      if (maxPerCustomer !== undefined && count > maxPerCustomer) {
        overLimit.push({ ruleId, campaignId: known.ruleCampaign.get(ruleId) ?? '', count, maxPerCustomer });
      }
    }
  }

  await tx
    .insert(dailyTotals)
    .values({
      shopId: shop.id,
      day,
      totalOrders: 1,
      totalRevenue: order.total,
      ordersWithGifts: hasGifts ? 1 : 0,
      revenueWithGifts: hasGifts ? order.total : 0,
    })
    .onConflictDoUpdate({
      target: [dailyTotals.shopId, dailyTotals.day],
      set: {
        totalOrders: sql`${dailyTotals.totalOrders} + excluded.total_orders`,
        totalRevenue: sql`${dailyTotals.totalRevenue} + excluded.total_revenue`,
        ordersWithGifts: sql`${dailyTotals.ordersWithGifts} + excluded.orders_with_gifts`,
        revenueWithGifts: sql`${dailyTotals.revenueWithGifts} + excluded.revenue_with_gifts`,
      },
    });

  if (hasGifts) {
    // The whole order's revenue counts for each campaign that gave it a gift.
    await addCampaignDayGifts(
      tx,
      shop.id,
      day,
      byKey(gifts.giftsByCampaign).map(([campaignId, quantity]) => ({ campaignId, ordersWithGifts: 1, giftsGiven: quantity, revenueWithGifts: order.total })),
    );
    await addRuleDayOrders(tx, shop.id, day, redeemed.map(([ruleId, campaignId]) => ({ ruleId, campaignId, repaired: false })));
  }

  uow.enqueue({
    kind: 'webhook',
    type: 'order.converted',
    data: {
      orderId: order.id,
      customerId: order.customerId ?? null,
      completedAt: order.completedAt.toISOString(),
      day,
      currency: order.currency,
      total: order.total,
      campaignIds: byKey(gifts.giftsByCampaign).map(([campaignId]) => campaignId),
      ruleIds: redeemed.map(([ruleId]) => ruleId),
      // Gift units the order carried beyond a spent budget (given at checkout all the same).
      overBudget: budget.overBudget,
      // Limited rules this order redeemed past the customer's maxPerCustomer (`count` includes it).
      overLimit: byKey(overLimit.map((entry): [string, OverLimit] => [entry.ruleId, entry])).map(([, entry]) => entry),
    },
  });
  if (budget.spentCampaigns.length > 0) {
    // The spent rules leave the payload and the checkout configuration (the sync rewrites the
    // shop's whole configuration; it re-syncs by itself when a windowed budget re-opens).
    uow.enqueue(...discountSyncEvents(budget.spentCampaigns));
    uow.touchRules();
  }
  return { ok: true as const, duplicate: false };
}
