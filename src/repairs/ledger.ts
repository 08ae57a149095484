/**
 * What a repair takes and gives (docs/repairs.md "Budgets, limits, stock"). Before the platform is
 * asked, the repair reserves as order intake does for a gift line: budget units (budgets/charge.ts,
 * the same counters in the same lock order, all or nothing) and the customer's redemption, with
 * the gift's stock checked in the catalog, and records the budget charge in `orders.budget_charges`
 * (as intake does) so a later refund of the repaired line gives back exactly those counters. A
 * refused edit gives both back. A committed one is counted in analytics as a gift given, on the
 * order's day.
 */
import type { Budget } from '@gcrs/engine';
import { GIFT_ATTRIBUTE, numericIdOf } from '@gcrs/engine';
import { and, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { addCampaignDayGifts } from '../analytics/store.ts';
import { addRuleDayOrders } from '../analytics/funnel.ts';
import { chargeBudgets } from '../budgets/charge.ts';
import { windowStartOf } from '../budgets/window.ts';
import { isSoldOut } from '../catalog/stock.ts';
import { findVariants } from '../catalog/store.ts';
import type { Tx } from '../db/database.ts';
import { campaigns, dailyTotals, giftBudgetUsage, orderRepairs, orders, redemptions, rules } from '../db/schema.ts';
import { discountSyncEvents } from '../campaigns/transitions.ts';
import { redemptionsSync } from '../redemptions/limit-sync.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';

export type RepairRow = typeof orderRepairs.$inferSelect;
export type RepairOrder = { customerId: string | null; completedAt: Date; day: string; total: number; giftLines: number; payload: Record<string, unknown> };

/** What {@link giveBackRepair} gave back: the budget units (the repair's gift units, once) and the customer's redemption. */
export type RepairGiveBack = { budgetUnits: number; redemptions: number };

/** Why a repair gives nothing, as its final status. */
export type Skip = 'skipped_sold_out' | 'skipped_budget' | 'skipped_limit';

/** Thrown inside the reserve transaction to roll back what was taken (a partial grant, a redemption). */
export class SkipRepair extends Error {
  readonly status: Skip;
  constructor(status: Skip, detail: string) {
    super(detail);
    this.status = status;
  }
}

/**
 * Takes the gift's budget units and the customer's redemption in `tx`, or throws {@link SkipRepair}
 * (the caller's transaction then rolls back every part of it).
 *
 * @example await writeShopUnlocked(deps, shop, (uow) => reserveRepair(uow, repair, order));
 */
export async function reserveRepair(uow: ShopUnitOfWork, repair: RepairRow, order: RepairOrder): Promise<void> {
  const { tx, shop } = uow;
  const [variant] = await findVariants(tx, shop.id, [numericIdOf(repair.variantId) ?? repair.variantId]);
  if (variant && isSoldOut(variant)) throw new SkipRepair('skipped_sold_out', 'The gift is sold out in the catalog');

  // The order row before the counters, as give-backs lock it (give-backs/give-back.ts): a repair and
  // a refund of the same order queue on it rather than deadlock.
  const orderRow = and(eq(orders.shopId, shop.id), eq(orders.id, repair.orderId));
  const [locked] = await tx.select({ budgetCharges: orders.budgetCharges }).from(orders).where(orderRow).for('update');
  const units = [{ ruleId: repair.ruleId, campaignId: repair.campaignId, units: repair.quantity }];
  const budget = await chargeBudgets(tx, shop, order.completedAt, units);
  if (budget.overBudget.length > 0) throw new SkipRepair('skipped_budget', 'The gift budget is spent');
  // Where a refund of the repaired line finds exactly the counters it charged, in intake's shape.
  if (locked && budget.charged.length > 0) await tx.update(orders).set({ budgetCharges: [...(locked.budgetCharges ?? []), ...budget.charged] }).where(orderRow);

  if (order.customerId !== null) {
    const [counted] = await tx
      .insert(redemptions)
      .values({ shopId: shop.id, customerId: order.customerId, ruleId: repair.ruleId, campaignId: repair.campaignId, count: 1, lastRedeemedAt: order.completedAt })
      .onConflictDoUpdate({
        target: [redemptions.shopId, redemptions.customerId, redemptions.ruleId],
        set: { count: sql`${redemptions.count} + 1`, lastRedeemedAt: sql`greatest(${redemptions.lastRedeemedAt}, excluded.last_redeemed_at)` },
      })
      .returning({ count: redemptions.count });
    const { limits, events } = await redemptionsSync(tx, shop.id, order.customerId, [repair.ruleId]);
    uow.enqueue(...events);
    const max = limits.get(repair.ruleId);
    if (max !== undefined && (counted?.count ?? 0) > max) throw new SkipRepair('skipped_limit', `The customer has redeemed this rule ${max} times, its limit`);
  }
  if (budget.spentCampaigns.length > 0) rulesChanged(uow, budget.spentCampaigns);
}

/**
 * The payload and the checkout configuration lose (or regain) a rule, as intake does: the sync
 * is queued, and the unit of work bumps the rules version and evicts every instance's cache.
 */
function rulesChanged(uow: ShopUnitOfWork, campaignIds: readonly string[]): void {
  uow.enqueue(...discountSyncEvents(campaignIds));
  uow.touchRules();
}

/**
 * Gives back what {@link reserveRepair} took, for an edit the platform refused or a repair the
 * order's cancellation ended: the budget units of the rule and its campaign in the order's window
 * (never below zero), and the redemption. The caller moves the row out of a holding status in
 * the same transaction, so this runs once per repair. Returns what came back, as a give-back's
 * answer counts it: the repair's units when a budget counter of it was lowered (counted once
 * however many counters, before the floor at zero, as give-backs/counters.ts counts), and the
 * redemption when the customer's count was above zero.
 *
 * @example await writeShopUnlocked(deps, shop, (uow) => giveBackRepair(uow, repair, order)); // { budgetUnits: 1, redemptions: 1 }
 */
export async function giveBackRepair(uow: ShopUnitOfWork, repair: RepairRow, order: Pick<RepairOrder, 'customerId' | 'completedAt'>): Promise<RepairGiveBack> {
  const { tx, shop } = uow;
  // The order row first (the lock order of give-backs); the gift never reached the order, so
  // refunds have no charge of it to give back. Intake never charges this (rule, campaign): the
  // repair exists because the order carried no gift of the rule.
  const orderRow = and(eq(orders.shopId, shop.id), eq(orders.id, repair.orderId));
  const [locked] = await tx.select({ budgetCharges: orders.budgetCharges }).from(orders).where(orderRow).for('update');
  const kept = (locked?.budgetCharges ?? []).filter((charge) => charge.ruleId !== repair.ruleId || charge.campaignId !== repair.campaignId);
  if (locked && kept.length !== (locked.budgetCharges ?? []).length) await tx.update(orders).set({ budgetCharges: kept }).where(orderRow);
  const [row] = await tx
    .select({ ruleBudget: sql<Budget | null>`${rules.options}->'budget'`, campaignBudget: campaigns.budget })
    .from(rules)
    .innerJoin(campaigns, and(eq(campaigns.shopId, rules.shopId), eq(campaigns.id, rules.campaignId)))
    .where(and(eq(rules.shopId, shop.id), eq(rules.id, repair.ruleId)));
  const counters = [
    { scope: 'campaign' as const, scopeId: repair.campaignId, budget: row?.campaignBudget },
    { scope: 'rule' as const, scopeId: repair.ruleId, budget: row?.ruleBudget },
  ];
  let reopened = false;
  let lowered = false;
  // The lock order of chargeBudgets (scope, id, window): campaign before rule.
  for (const counter of counters) {
    if (!counter.budget) continue;
    const windowStart = windowStartOf(order.completedAt, counter.budget.window, shop.timezone);
    const [after] = await tx
      .update(giftBudgetUsage)
      .set({ used: sql`greatest(0, ${giftBudgetUsage.used} - ${repair.quantity})` })
      .where(and(eq(giftBudgetUsage.shopId, shop.id), eq(giftBudgetUsage.scope, counter.scope), eq(giftBudgetUsage.scopeId, counter.scopeId), eq(giftBudgetUsage.windowStart, windowStart)))
      .returning({ used: giftBudgetUsage.used });
    if (after) lowered = true;
    if (after && after.used < counter.budget.maxGifts && after.used + repair.quantity >= counter.budget.maxGifts) reopened = true;
  }
  let redeemed = 0;
  if (order.customerId !== null) {
    // A count already at zero stays so (as `greatest` left it) and is not reported as given back.
    const counted = await tx
      .update(redemptions)
      .set({ count: sql`greatest(0, ${redemptions.count} - 1)` })
      .where(and(eq(redemptions.shopId, shop.id), eq(redemptions.customerId, order.customerId), eq(redemptions.ruleId, repair.ruleId), gt(redemptions.count, 0)))
      .returning({ count: redemptions.count });
    redeemed = counted.length;
    uow.enqueue(...(await redemptionsSync(tx, shop.id, order.customerId, [repair.ruleId])).events);
  }
  if (reopened) rulesChanged(uow, [repair.campaignId]);
  return { budgetUnits: lowered ? repair.quantity : 0, redemptions: redeemed };
}

/** Whether the order as recorded carried a gift line of the campaign. */
function carriedCampaign(payload: Record<string, unknown>, campaignId: string): boolean {
  const lines = Array.isArray(payload.lines) ? (payload.lines as Array<{ attributes?: Record<string, string> }>) : [];
  return lines.some((line) => line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim() === campaignId);
}

/**
 * Counts a committed repair in analytics as a gift given, on the order's day: the campaign's gift
 * units, and — when the order had no gift of the campaign (or none at all) before — the order and
 * its revenue among the orders with gifts.
 *
 * @example await db.transaction((tx) => countRepairedGift(tx, shop.id, repair, order));
 */
export async function countRepairedGift(tx: Tx, shopId: string, repair: RepairRow, order: RepairOrder & { id: string }): Promise<void> {
  const earlier = await tx
    .select({ ruleId: orderRepairs.ruleId })
    .from(orderRepairs)
    .where(
      and(
        eq(orderRepairs.shopId, shopId),
        eq(orderRepairs.orderId, order.id),
        eq(orderRepairs.campaignId, repair.campaignId),
        ne(orderRepairs.ruleId, repair.ruleId),
        inArray(orderRepairs.status, ['repaired']),
      ),
    );
  // Intake's lock order: the day's totals before the campaign's row.
  // The order row's gift lines count the repaired line too; the day's orders with gifts gain it once.
  const [before] = await tx
    .update(orders)
    .set({ giftLines: sql`${orders.giftLines} + 1` })
    .where(and(eq(orders.shopId, shopId), eq(orders.id, order.id)))
    .returning({ giftLines: orders.giftLines });
  if (before?.giftLines === 1) {
    await tx
      .update(dailyTotals)
      .set({ ordersWithGifts: sql`${dailyTotals.ordersWithGifts} + 1`, revenueWithGifts: sql`${dailyTotals.revenueWithGifts} + ${order.total}` })
      .where(and(eq(dailyTotals.shopId, shopId), eq(dailyTotals.day, order.day)));
  }
  const newForCampaign = !carriedCampaign(order.payload, repair.campaignId) && earlier.length === 0;
  await addCampaignDayGifts(tx, shopId, order.day, [
    { campaignId: repair.campaignId, ordersWithGifts: newForCampaign ? 1 : 0, giftsGiven: repair.quantity, revenueWithGifts: newForCampaign ? order.total : 0 },
  ]);
  // A repair is for an order without a gift line of its rule: the rule's funnel gains the order.
  await addRuleDayOrders(tx, shopId, order.day, [{ ruleId: repair.ruleId, campaignId: repair.campaignId, repaired: true }]);
}
