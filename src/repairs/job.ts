/**
 * The `order_repair` outbox job (docs/repairs.md "The job"): one (order, rule) whose gift the
 * paid order lacks. Its row in `order_repairs` moves through these states, each change in its
 * own short transaction, so a job run late, twice or by two dispatchers never edits an order
 * twice:
 *
 *   pending ─reserve─▶ editing ─commit─▶ repaired
 *      │                  │ └─userErrors─▶ failed (budget and redemption given back)
 *      │                  └─throttled/outage─▶ reserved ─(retry)─▶ editing …
 *      └─▶ skipped_sold_out | skipped_budget | skipped_limit | skipped_not_connected | skipped_order_gone
 *
 *   pending | reserved | interrupted ─order cancelled─▶ cancelled (what was held given back)
 *   editing ─order cancelled─▶ marked; the job's next move is to cancelled (given back)
 *
 * (statuses.ts lists them.) Each move is one unit of work of the shop (shops/unit-of-work.ts
 * `writeShopUnlocked`): a budget spent or re-opened tells every instance's caches. Its first
 * statements lock the shop row FOR KEY SHARE (a shop that shop/redact deleted meanwhile makes
 * the move nothing, so no outbox row outlives the shop) and then the order row, the lock order
 * of give-backs: a cancellation and a move of the same repair queue, each seeing the other whole.
 *
 * A job that finds its row `editing` was interrupted during the platform calls (a crash, or a
 * lease that ran out): the edit may or may not have been committed, so it is not sent again
 * (at most once on the platform) and the row says `interrupted` for the merchant to check.
 */
import type { RuleOptions } from '@gcrs/engine';
import type { Logger } from 'pino';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Tx } from '../db/database.ts';
import { orderRepairs, orders, rules, shops } from '../db/schema.ts';
import type { AttemptOutcome } from '../outbox/attempt-outcome.ts';
import { MAX_ATTEMPTS } from '../outbox/retry-schedule.ts';
import { adminClient, PlatformAnswerError, PlatformUnauthorizedError } from '../platform/admin-client.ts';
import { markConnectionBroken, shopCredentials } from '../platform/connections.ts';
import { toShopRecord } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';
import { writeShopUnlocked } from '../shops/unit-of-work.ts';
import type { ShopUnitOfWork, WriteShopDeps } from '../shops/unit-of-work.ts';
import { countRepairedGift, giveBackRepair, reserveRepair, SkipRepair } from './ledger.ts';
import type { RepairOrder, RepairRow } from './ledger.ts';
import { addGiftToOrder } from './order-edit.ts';
import { shopStillThere } from './shop-lock.ts';
import { FINAL_STATUSES } from './statuses.ts';
import type { RepairStatus } from './statuses.ts';

export type OrderRepairOptions = {
  db: Database;
  /** What a unit of work tells after its commit (rules cache, shop versions, invalidation bus). */
  caches: Omit<WriteShopDeps, 'db'>;
  /** PLATFORM_APP_SECRET: opens the shop's sealed token. */
  secret: string | undefined;
  /** PLATFORM_ADMIN_API_URL. */
  adminApiUrl: string | undefined;
  logger?: Logger;
  fetch?: typeof fetch;
  now?: () => Date;
};

type Extra = { detail?: string | null; platformOrderId?: string; lineItemId?: string | null };

/**
 * One move of the repair as a unit of work: the shop row and the order row locked in that order,
 * then the repair row re-read under its own lock and handed to `work`. Nothing runs when the shop
 * is gone; `undefined` then.
 */
async function step<T>(options: OrderRepairOptions, shop: ShopRecord, key: RepairRow, work: (uow: ShopUnitOfWork, repair: RepairRow) => Promise<T>): Promise<T | undefined> {
  return writeShopUnlocked({ db: options.db, ...options.caches }, shop, async (uow) => {
    if (!(await shopStillThere(uow.tx, shop.id))) return undefined;
    await uow.tx.select({ id: orders.id }).from(orders).where(and(eq(orders.shopId, shop.id), eq(orders.id, key.orderId))).for('update');
    const [repair] = await uow.tx
      .select()
      .from(orderRepairs)
      .where(and(eq(orderRepairs.shopId, shop.id), eq(orderRepairs.orderId, key.orderId), eq(orderRepairs.ruleId, key.ruleId)))
      .for('update');
    return repair === undefined ? undefined : work(uow, repair);
  });
}

/** Moves the locked row from one of `from` to `status`; false when it is elsewhere. */
async function move(tx: Tx, repair: RepairRow, from: readonly RepairStatus[], status: RepairStatus, extra: Extra, now: Date): Promise<boolean> {
  if (!(from as readonly string[]).includes(repair.status)) return false;
  const moved = await tx
    .update(orderRepairs)
    .set({ status, updatedAt: now, ...extra })
    .where(and(eq(orderRepairs.shopId, repair.shopId), eq(orderRepairs.orderId, repair.orderId), eq(orderRepairs.ruleId, repair.ruleId), inArray(orderRepairs.status, [...from])))
    .returning({ status: orderRepairs.status });
  return moved.length > 0;
}

const CANCELLED_DETAIL = 'The order was cancelled or the gift refunded before the repair ended';

/**
 * A held repair whose cancellation was requested while the job edited (repairs/cancel.ts): it
 * ends `cancelled` and gives back; true when that happened.
 */
async function honourCancel(uow: ShopUnitOfWork, repair: RepairRow, order: RepairOrder, now: Date, extra: Extra = {}): Promise<boolean> {
  if (repair.cancelRequestedAt === null) return false;
  if (!(await move(uow.tx, repair, ['editing', 'reserved', 'interrupted'], 'cancelled', { detail: CANCELLED_DETAIL, ...extra }, now))) return false;
  await giveBackRepair(uow, repair, order);
  return true;
}

const outcome = (started: number, failure?: { error: string; statusCode?: number | null; retryAfterMs?: number | undefined; final?: boolean }): AttemptOutcome => {
  const durationMs = Math.round(performance.now() - started);
  if (failure === undefined) return { ok: true, statusCode: null, durationMs };
  return { ok: false, statusCode: failure.statusCode ?? null, error: failure.error, durationMs, ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }), ...(failure.final ? { final: true } : {}) };
};

/**
 * Runs one attempt of the job `{ orderId, ruleId }`; `attempt` is the outbox's 1-based attempt
 * number (the last one gives the reservation back rather than leave it held).
 *
 * @example
 *   const result = await runOrderRepair({ db, caches: ctx, secret, adminApiUrl }, row.shopId, row.payload, 1);
 */
export async function runOrderRepair(options: OrderRepairOptions, shopId: string, payload: Record<string, unknown>, attempt: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const { db } = options;
  const now = () => (options.now ?? (() => new Date()))();
  const { orderId, ruleId } = payload;
  if (typeof orderId !== 'string' || typeof ruleId !== 'string') return outcome(started, { error: 'Job payload has no orderId and ruleId', final: true });

  const [found] = await db.select().from(orderRepairs).where(and(eq(orderRepairs.shopId, shopId), eq(orderRepairs.orderId, orderId), eq(orderRepairs.ruleId, ruleId)));
  if (found === undefined || FINAL_STATUSES.has(found.status)) return outcome(started);
  const [shopRow] = await db.select().from(shops).where(eq(shops.id, shopId));
  // A shop that shop/redact deleted: its rows are gone with it, nothing is left to repair.
  if (shopRow === undefined) return outcome(started);
  const shop = toShopRecord(shopRow);
  const [order] = await db
    .select({ customerId: orders.customerId, completedAt: orders.completedAt, day: orders.day, total: orders.total, giftLines: orders.giftLines, payload: orders.payload, currency: orders.currency })
    .from(orders)
    .where(and(eq(orders.shopId, shopId), eq(orders.id, orderId)));
  const run = <T>(work: (uow: ShopUnitOfWork, repair: RepairRow) => Promise<T>) => step(options, shop, found, work);

  if (order === undefined) {
    await run((uow, repair) => move(uow.tx, repair, ['pending'], 'skipped_order_gone', { detail: 'The order is no longer recorded (redacted or the shop deleted)' }, now()));
    return outcome(started);
  }
  if (found.status === 'editing') {
    await run(async (uow, repair) => {
      if (await honourCancel(uow, repair, order, now())) return;
      await move(uow.tx, repair, ['editing'], 'interrupted', { detail: 'Interrupted during the order edit: check the order on the platform' }, now());
    });
    return outcome(started);
  }
  const credentials = await shopCredentials(db, options.secret, shopId);
  if (credentials.state === 'none' || options.secret === undefined) {
    await run((uow, repair) => move(uow.tx, repair, ['pending'], 'skipped_not_connected', { detail: 'The shop has no platform connection to edit the order with' }, now()));
    return outcome(started);
  }

  const editing = found.status === 'pending' ? await reserve(run, order, now()) : await run(async (uow, repair) => !(await honourCancel(uow, repair, order, now())) && (await move(uow.tx, repair, ['reserved'], 'editing', {}, now())));
  if (editing !== true) return outcome(started);

  const retry = async (error: string, statusCode: number | null, retryAfterMs?: number): Promise<AttemptOutcome> => {
    const last = attempt >= MAX_ATTEMPTS;
    await run(async (uow, repair) => {
      if (await honourCancel(uow, repair, order, now())) return;
      if (!last) return move(uow.tx, repair, ['editing'], 'reserved', { detail: error }, now());
      if (await move(uow.tx, repair, ['editing'], 'failed', { detail: `Gave up after ${attempt} attempts: ${error}` }, now())) await giveBackRepair(uow, repair, order);
      return true;
    });
    return last ? outcome(started, { error, statusCode, final: true }) : outcome(started, { error, statusCode, retryAfterMs });
  };

  try {
    if (credentials.state === 'unreadable') throw new PlatformUnauthorizedError('The platform access token cannot be opened with this PLATFORM_APP_SECRET: connect the shop again');
    const client = adminClient(credentials, { ...(options.adminApiUrl === undefined ? {} : { adminApiUrl: options.adminApiUrl }), ...(options.fetch ? { fetch: options.fetch } : {}) });
    const [rule] = await db.select({ options: rules.options }).from(rules).where(and(eq(rules.shopId, shopId), eq(rules.id, ruleId)));
    const ruleOptions: Partial<RuleOptions> = rule?.options ?? {};
    const edit = await addGiftToOrder(client, {
      orderId,
      variantId: found.variantId,
      quantity: found.quantity,
      currency: order.currency,
      discount: { type: ruleOptions.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage', value: ruleOptions.discountValue ?? 100, title: ruleOptions.discountTitle ?? 'Free gift' },
      staffNote: `Gift added by the gift campaign service: rule ${ruleId}, missing after an express checkout`,
    });
    await run(async (uow, repair) => {
      if (edit.ok) {
        const committed = { platformOrderId: edit.orderGid, lineItemId: edit.lineItemId };
        // The gift is on the order, but the order was cancelled (or the gift refunded) meanwhile: given back.
        if (await honourCancel(uow, repair, order, now(), committed)) return;
        if (await move(uow.tx, repair, ['editing', 'interrupted'], 'repaired', { detail: null, ...committed }, now())) await countRepairedGift(uow.tx, shopId, repair, { ...order, id: orderId });
      } else if (await move(uow.tx, repair, ['editing'], 'failed', { detail: `${edit.step}: ${edit.message}` }, now())) {
        await giveBackRepair(uow, repair, order);
      }
    });
    return outcome(started);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof PlatformUnauthorizedError) {
      await markConnectionBroken(db, shopId, message, now());
      options.logger?.warn({ shopId }, 'platform connection broken: the platform refused the access token; connect the shop again');
      return retry(message, 401);
    }
    if (error instanceof PlatformAnswerError) return retry(message, error.statusCode, error.retryAfterMs);
    return retry(message, null);
  }
}

type Run = <T>(work: (uow: ShopUnitOfWork, repair: RepairRow) => Promise<T>) => Promise<T | undefined>;

/** pending → editing with budget, redemption and stock taken; or the skip, with nothing taken. */
async function reserve(run: Run, order: RepairOrder, at: Date): Promise<boolean> {
  try {
    return (
      (await run(async (uow, repair) => {
        // The row re-read under its lock: of two runs of one job, the second finds it moved and takes nothing.
        if (!(await move(uow.tx, repair, ['pending'], 'editing', {}, at))) return false;
        await reserveRepair(uow, repair, order);
        return true;
      })) === true
    );
  } catch (error) {
    if (!(error instanceof SkipRepair)) throw error;
    await run((uow, repair) => move(uow.tx, repair, ['pending'], error.status, { detail: error.message }, at));
    return false;
  }
}
