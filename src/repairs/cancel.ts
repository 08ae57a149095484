/**
 * A repair the order's cancellation (or a refund of its gift) overtakes (docs/repairs.md
 * "Cancelled before the repair ended"): what the repair holds is given back exactly once, and
 * the job never edits the order afterwards.
 *
 * - `pending`: nothing is held yet; the row becomes `cancelled` and the job finds it final.
 * - `reserved`, `interrupted`: the budget unit and the redemption are held; they are given back
 *   and the row becomes `cancelled`, in one transaction.
 * - `editing`: the job is talking to the platform, and only it knows how that ends; the row is
 *   marked (`cancel_requested_at`) and the job gives back when it next moves the row.
 *
 * Runs in the give-back's unit of work, after it locked the order row: the job locks the order
 * row before the repair row too, so each sees the other's change whole.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { orderRepairs, orders } from '../db/schema.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import { giveBackRepair } from './ledger.ts';
import type { RepairRow } from './ledger.ts';
import { CANCELLABLE_STATUSES } from './statuses.ts';

/**
 * The repairs ended and marked, and what the ended ones gave back (the give-back's answer adds it:
 * give-backs/give-back.ts). A marked `editing` repair gives back later, in the job: not counted here.
 */
export type CancelledRepairs = { cancelled: number; marked: number; budgetUnits: number; redemptions: number };

/**
 * Ends the order's open repairs that `which` selects (all of them for a cancellation).
 *
 * @example
 *   await cancelOpenRepairs(uow, '820982911946154508', () => true, new Date()); // { cancelled: 1, marked: 0, budgetUnits: 1, redemptions: 1 }
 */
export async function cancelOpenRepairs(uow: ShopUnitOfWork, orderId: string, which: (repair: RepairRow) => boolean, now: Date): Promise<CancelledRepairs> {
  const { tx, shop } = uow;
  const open = await tx
    .select()
    .from(orderRepairs)
    .where(and(eq(orderRepairs.shopId, shop.id), eq(orderRepairs.orderId, orderId), inArray(orderRepairs.status, [...CANCELLABLE_STATUSES])))
    .orderBy(orderRepairs.ruleId)
    .for('update');
  const chosen = open.filter(which);
  const result: CancelledRepairs = { cancelled: 0, marked: 0, budgetUnits: 0, redemptions: 0 };
  if (chosen.length === 0) return result;
  const [order] = await tx
    .select({ customerId: orders.customerId, completedAt: orders.completedAt })
    .from(orders)
    .where(and(eq(orders.shopId, shop.id), eq(orders.id, orderId)));
  for (const repair of chosen) {
    const row = and(eq(orderRepairs.shopId, shop.id), eq(orderRepairs.orderId, orderId), eq(orderRepairs.ruleId, repair.ruleId));
    if (repair.status === 'editing') {
      const marked = await tx
        .update(orderRepairs)
        .set({ cancelRequestedAt: now, updatedAt: now })
        .where(and(row, isNull(orderRepairs.cancelRequestedAt)))
        .returning({ ruleId: orderRepairs.ruleId });
      result.marked += marked.length;
      continue;
    }
    await tx.update(orderRepairs).set({ status: 'cancelled', cancelRequestedAt: now, updatedAt: now, detail: 'The order was cancelled or the gift refunded before the repair ended' }).where(row);
    if (repair.status !== 'pending' && order) {
      const given = await giveBackRepair(uow, repair, order);
      result.budgetUnits += given.budgetUnits;
      result.redemptions += given.redemptions;
    }
    result.cancelled += 1;
  }
  return result;
}
