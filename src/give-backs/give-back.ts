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
import type { Budget } from '@gcrs/engine';
import { GIFT_ATTRIBUTE, numericIdOf } from '@gcrs/engine';
import { localDateOf } from '../analytics/calendar.ts';
import { usageKey } from '../budgets/spent.ts';
import type { CounterKey } from '../budgets/usage.ts';
import type { Tx } from '../db/database.ts';
import { campaigns, dailyCampaignStats, dailyTotals, giftBudgetUsage, orderGiveBacks, orderRepairs, orders, redemptions, rules } from '../db/schema.ts';
import { discountSyncEvents } from '../campaigns/transitions.ts';
import { redemptionsSync } from '../redemptions/limit-sync.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import type { GiveBackRequest } from './payloads.ts';

export type GiveBackOutcome =
  | { outcome: 'unknown_order' }
  | { outcome: 'duplicate' }
  | { outcome: 'given_back'; giftUnits: number; budgetUnits: number; redemptions: number };

type GiftKey = { campaignId: string; ruleId: string | null };
const keyOf = (campaignId: string, ruleId: string | null) => `${campaignId}\u0000${ruleId ?? ''}`;
const sorted = <T>(values: Iterable<T>, key: (value: T) => string): T[] =>
  [...values].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Gift units per (campaign, rule) of lines, counting only this shop's campaigns (as intake does). */
function giftUnitsOf(lines: ReadonlyArray<{ quantity: number; attributes?: Record<string, string> | undefined }>, known: ReadonlySet<string>) {
  const units = new Map<string, GiftKey & { units: number }>();
  for (const line of lines) {
    const campaignId = line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim();
    if (!campaignId || !known.has(campaignId) || line.quantity <= 0) continue;
    const ruleId = line.attributes?.[GIFT_ATTRIBUTE.ruleId]?.trim() || null;
    const entry = units.get(keyOf(campaignId, ruleId)) ?? { campaignId, ruleId, units: 0 };
    entry.units += line.quantity;
    units.set(keyOf(campaignId, ruleId), entry);
  }
  return units;
}

type StoredLine = { quantity: number; attributes?: Record<string, string> };
type RepairedGift = { campaignId: string; ruleId: string; variant: string; quantity: number };

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

  const orderLines = ((order.payload.lines ?? []) as StoredLine[]).filter((line) => line && typeof line.quantity === 'number');
  // Gifts a committed repair added (docs/repairs.md): the order carries them as gift lines of their rule.
  const repaired: RepairedGift[] = (
    await tx
      .select({ campaignId: orderRepairs.campaignId, ruleId: orderRepairs.ruleId, variantId: orderRepairs.variantId, quantity: orderRepairs.quantity })
      .from(orderRepairs)
      .where(and(eq(orderRepairs.shopId, shop.id), eq(orderRepairs.orderId, request.orderId), eq(orderRepairs.status, 'repaired')))
  )
    .map((row) => ({ campaignId: row.campaignId, ruleId: row.ruleId, variant: numericIdOf(row.variantId) ?? row.variantId, quantity: row.quantity }))
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
    return { outcome: 'given_back', giftUnits: 0, budgetUnits: 0, redemptions: 0 };
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
  return { outcome: 'given_back', giftUnits, budgetUnits: budget.units, redemptions: redemptionCount };
}

/** A repaired gift as the order line intake would have recorded (its `_svc_*` properties). */
const repairedLine = (row: RepairedGift): StoredLine => ({
  quantity: row.quantity,
  attributes: { [GIFT_ATTRIBUTE.campaignId]: row.campaignId, [GIFT_ATTRIBUTE.ruleId]: row.ruleId },
});

const GIFT_PREFIX = '_svc_';

/**
 * A refund's gift units per (campaign, rule): by the properties of the lines it refunds, and, for
 * a line with no `_svc_*` property, fully discounted, of a variant the order's repairs added, as
 * that repaired gift (rules in id order, each up to what the order still carries of it). A paid
 * line of the gift's variant is not discounted in full, so it is never taken for the gift.
 */
function refundedUnits(
  request: Extract<GiveBackRequest, { kind: 'refund' }>,
  known: ReadonlySet<string>,
  repaired: readonly RepairedGift[],
  left: (key: string) => number,
): Map<string, number> {
  const units = new Map([...giftUnitsOf(request.lines, known)].map(([key, entry]) => [key, entry.units]));
  for (const line of request.lines) {
    if (line.quantity <= 0 || !line.fullyDiscounted || line.variantId === null) continue;
    if (Object.keys(line.attributes).some((name) => name.startsWith(GIFT_PREFIX))) continue;
    let rest = line.quantity;
    for (const row of repaired) {
      if (rest === 0) break;
      const key = keyOf(row.campaignId, row.ruleId);
      if (row.variant !== line.variantId || !known.has(row.campaignId)) continue;
      const take = Math.min(rest, Math.max(0, left(key) - (units.get(key) ?? 0)));
      if (take === 0) continue;
      units.set(key, (units.get(key) ?? 0) + take);
      rest -= take;
    }
  }
  return units;
}

type Given = GiftKey & { units: number };

/**
 * Lowers the counters intake charged by the budget units the refund returns, in key order,
 * floored at zero. Per rule, refunded units first cover what intake could not grant (over
 * budget): those never counted. Returns the units and the campaigns whose budget was spent and
 * is open again.
 */
async function giveBackBudgets(
  tx: Tx,
  shopId: string,
  charges: ReadonlyArray<{ ruleId: string; campaignId: string; units: number; counters: CounterKey[] }>,
  given: readonly Given[],
  carried: ReadonlyMap<string, Given>,
  returned: ReadonlyMap<string, number>,
): Promise<{ units: number; reopened: string[] }> {
  const deltas = new Map<string, CounterKey & { delta: number; campaignId: string }>();
  let units = 0;
  for (const entry of given) {
    // Only the lines intake charged: the rule named with its own campaign (a line naming it with another campaign never counted).
    const charge = entry.ruleId ? charges.find((c) => c.ruleId === entry.ruleId && c.campaignId === entry.campaignId) : undefined;
    if (!charge) continue;
    const key = keyOf(entry.campaignId, entry.ruleId);
    const notGranted = Math.max(0, (carried.get(key)?.units ?? 0) - charge.units);
    const before = returned.get(key) ?? 0;
    const budgetBefore = Math.min(charge.units, Math.max(0, before - notGranted));
    const budgetAfter = Math.min(charge.units, Math.max(0, before + entry.units - notGranted));
    const delta = budgetAfter - budgetBefore;
    if (delta <= 0) continue;
    units += delta;
    for (const counter of charge.counters) {
      const id = usageKey(counter.scope, counter.scopeId, counter.windowStart);
      const found = deltas.get(id) ?? { ...counter, delta: 0, campaignId: entry.campaignId };
      found.delta += delta;
      deltas.set(id, found);
    }
  }
  if (deltas.size === 0) return { units, reopened: [] };
  const maxOf = await currentBudgets(tx, shopId, [...deltas.values()]);
  const reopened = new Set<string>();
  for (const counter of sorted(deltas.values(), (c) => usageKey(c.scope, c.scopeId, c.windowStart))) {
    const [row] = await tx
      .update(giftBudgetUsage)
      .set({ used: sql`greatest(${giftBudgetUsage.used} - ${counter.delta}, 0)` })
      .where(
        and(
          eq(giftBudgetUsage.shopId, shopId),
          eq(giftBudgetUsage.scope, counter.scope),
          eq(giftBudgetUsage.scopeId, counter.scopeId),
          eq(giftBudgetUsage.windowStart, counter.windowStart),
        ),
      )
      .returning({ used: giftBudgetUsage.used });
    const max = maxOf.get(`${counter.scope}\u0000${counter.scopeId}`);
    // Spent before (at most one extra sync when the floor cut the give-back), open after.
    if (row && max !== undefined && row.used < max && row.used + counter.delta >= max) reopened.add(counter.campaignId);
  }
  return { units, reopened: [...reopened] };
}

/** The budgets (maxGifts) the counters' rules and campaigns have now, by `scope\0id`. */
async function currentBudgets(tx: Tx, shopId: string, counters: ReadonlyArray<CounterKey>): Promise<Map<string, number>> {
  const ruleIds = [...new Set(counters.filter((c) => c.scope === 'rule').map((c) => c.scopeId))];
  const campaignIds = [...new Set(counters.filter((c) => c.scope === 'campaign').map((c) => c.scopeId))];
  const max = new Map<string, number>();
  if (ruleIds.length > 0) {
    const rows = await tx
      .select({ id: rules.id, budget: sql<Budget | null>`${rules.options}->'budget'` })
      .from(rules)
      .where(and(eq(rules.shopId, shopId), inArray(rules.id, ruleIds)));
    for (const row of rows) if (row.budget) max.set(`rule\u0000${row.id}`, row.budget.maxGifts);
  }
  if (campaignIds.length > 0) {
    const rows = await tx
      .select({ id: campaigns.id, budget: campaigns.budget })
      .from(campaigns)
      .where(and(eq(campaigns.shopId, shopId), inArray(campaigns.id, campaignIds)));
    for (const row of rows) if (row.budget) max.set(`campaign\u0000${row.id}`, row.budget.maxGifts);
  }
  return max;
}

/** Refunds on the refund's day: gift units per campaign, and orders that stopped carrying gifts. */
async function recordRefundRollups(
  tx: Tx,
  shopId: string,
  day: string,
  given: readonly Given[],
  carried: ReadonlyMap<string, Given>,
  left: (key: string) => number,
): Promise<void> {
  const leftOf = (campaignId?: string) =>
    [...carried].filter(([, entry]) => campaignId === undefined || entry.campaignId === campaignId).reduce((sum, [key]) => sum + left(key), 0);
  const givenOf = (campaignId?: string) =>
    given.filter((entry) => campaignId === undefined || entry.campaignId === campaignId).reduce((sum, entry) => sum + entry.units, 0);
  const orderNoMore = leftOf() === givenOf() ? 1 : 0;
  await tx
    .insert(dailyTotals)
    .values({ shopId, day, totalOrders: 0, totalRevenue: 0, ordersWithGifts: 0, revenueWithGifts: 0, ordersWithGiftsRefunded: orderNoMore })
    .onConflictDoUpdate({
      target: [dailyTotals.shopId, dailyTotals.day],
      set: { ordersWithGiftsRefunded: sql`${dailyTotals.ordersWithGiftsRefunded} + excluded.orders_with_gifts_refunded` },
    });
  const campaignIds = sorted(new Set(given.map((entry) => entry.campaignId)), (id) => id);
  await tx
    .insert(dailyCampaignStats)
    .values(
      campaignIds.map((campaignId) => ({
        shopId,
        day,
        campaignId,
        ordersWithGifts: 0,
        giftsGiven: 0,
        revenueWithGifts: 0,
        giftsRefunded: givenOf(campaignId),
        ordersWithGiftsRefunded: leftOf(campaignId) === givenOf(campaignId) ? 1 : 0,
      })),
    )
    .onConflictDoUpdate({
      target: [dailyCampaignStats.shopId, dailyCampaignStats.day, dailyCampaignStats.campaignId],
      set: {
        giftsRefunded: sql`least(${dailyCampaignStats.giftsRefunded}::bigint + excluded.gifts_refunded, 2147483647)`,
        ordersWithGiftsRefunded: sql`${dailyCampaignStats.ordersWithGiftsRefunded} + excluded.orders_with_gifts_refunded`,
      },
    });
}
