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
 * A job that finds its row `editing` was interrupted during the platform calls (a crash, or a
 * lease that ran out): the edit may or may not have been committed, so it is not sent again
 * (at most once on the platform) and the row says `interrupted` for the merchant to check.
 */
import type { RuleOptions } from '@gcrs/engine';
import type { Logger } from 'pino';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Queryable } from '../db/database.ts';
import { orderRepairs, orders, rules, shops } from '../db/schema.ts';
import type { AttemptOutcome } from '../outbox/attempt-outcome.ts';
import { MAX_ATTEMPTS } from '../outbox/retry-schedule.ts';
import { adminClient, PlatformAnswerError, PlatformUnauthorizedError } from '../platform/admin-client.ts';
import { markConnectionBroken, shopCredentials } from '../platform/connections.ts';
import { countRepairedGift, giveBackRepair, reserveRepair, SkipRepair } from './ledger.ts';
import type { RepairOrder, RepairRow } from './ledger.ts';
import { addGiftToOrder } from './order-edit.ts';

export type OrderRepairOptions = {
  db: Database;
  /** PLATFORM_APP_SECRET: opens the shop's sealed token. */
  secret: string | undefined;
  /** PLATFORM_ADMIN_API_URL. */
  adminApiUrl: string | undefined;
  logger?: Logger;
  fetch?: typeof fetch;
  now?: () => Date;
};

type Shop = { id: string; timezone: string; currency: string };

const FINAL = new Set(['repaired', 'failed', 'interrupted', 'skipped_customer_choice', 'skipped_sold_out', 'skipped_budget', 'skipped_limit', 'skipped_not_connected', 'skipped_order_gone']);

/** Moves the row from one of `from` to `status`; false when another run moved it first. */
async function move(db: Queryable, repair: RepairRow, from: readonly string[], status: string, extra: { detail?: string | null; platformOrderId?: string }, now: Date): Promise<boolean> {
  const moved = await db
    .update(orderRepairs)
    .set({ status, updatedAt: now, ...extra })
    .where(and(eq(orderRepairs.shopId, repair.shopId), eq(orderRepairs.orderId, repair.orderId), eq(orderRepairs.ruleId, repair.ruleId), inArray(orderRepairs.status, [...from])))
    .returning({ status: orderRepairs.status });
  return moved.length > 0;
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
 *   const result = await runOrderRepair({ db, secret, adminApiUrl }, row.shopId, row.payload, 1);
 */
export async function runOrderRepair(options: OrderRepairOptions, shopId: string, payload: Record<string, unknown>, attempt: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const { db } = options;
  const now = () => (options.now ?? (() => new Date()))();
  const { orderId, ruleId } = payload;
  if (typeof orderId !== 'string' || typeof ruleId !== 'string') return outcome(started, { error: 'Job payload has no orderId and ruleId', final: true });

  const [repair] = await db.select().from(orderRepairs).where(and(eq(orderRepairs.shopId, shopId), eq(orderRepairs.orderId, orderId), eq(orderRepairs.ruleId, ruleId)));
  if (repair === undefined || FINAL.has(repair.status)) return outcome(started);
  if (repair.status === 'editing') {
    await move(db, repair, ['editing'], 'interrupted', { detail: 'Interrupted during the order edit: check the order on the platform' }, now());
    return outcome(started);
  }
  const [shop] = await db.select({ id: shops.id, timezone: shops.timezone, currency: shops.currency }).from(shops).where(eq(shops.id, shopId));
  const [order] = await db
    .select({ customerId: orders.customerId, completedAt: orders.completedAt, day: orders.day, total: orders.total, giftLines: orders.giftLines, payload: orders.payload, currency: orders.currency })
    .from(orders)
    .where(and(eq(orders.shopId, shopId), eq(orders.id, orderId)));
  if (shop === undefined || order === undefined) {
    await move(db, repair, ['pending'], 'skipped_order_gone', { detail: 'The order is no longer recorded (redacted or the shop deleted)' }, now());
    return outcome(started);
  }
  const credentials = await shopCredentials(db, options.secret, shopId);
  if (credentials.state === 'none' || options.secret === undefined) {
    await move(db, repair, ['pending'], 'skipped_not_connected', { detail: 'The shop has no platform connection to edit the order with' }, now());
    return outcome(started);
  }

  if (repair.status === 'pending') {
    const reserved = await reserve(db, shop, repair, order, now());
    if (!reserved) return outcome(started);
  } else if (!(await move(db, repair, ['reserved'], 'editing', {}, now()))) {
    return outcome(started);
  }

  const retry = async (error: string, statusCode: number | null, retryAfterMs?: number): Promise<AttemptOutcome> => {
    if (attempt >= MAX_ATTEMPTS) {
      await db.transaction(async (tx) => {
        if (await move(tx, repair, ['editing'], 'failed', { detail: `Gave up after ${attempt} attempts: ${error}` }, now())) await giveBackRepair(tx, shop, repair, order);
      });
      return outcome(started, { error, statusCode, final: true });
    }
    await move(db, repair, ['editing'], 'reserved', { detail: error }, now());
    return outcome(started, { error, statusCode, retryAfterMs });
  };

  try {
    if (credentials.state === 'unreadable') throw new PlatformUnauthorizedError('The platform access token cannot be opened with this PLATFORM_APP_SECRET: connect the shop again');
    const client = adminClient(credentials, { ...(options.adminApiUrl === undefined ? {} : { adminApiUrl: options.adminApiUrl }), ...(options.fetch ? { fetch: options.fetch } : {}) });
    const [rule] = await db.select({ options: rules.options }).from(rules).where(and(eq(rules.shopId, shopId), eq(rules.id, ruleId)));
    const ruleOptions: Partial<RuleOptions> = rule?.options ?? {};
    const edit = await addGiftToOrder(client, {
      orderId,
      variantId: repair.variantId,
      quantity: repair.quantity,
      currency: order.currency,
      discount: { type: ruleOptions.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage', value: ruleOptions.discountValue ?? 100, title: ruleOptions.discountTitle ?? 'Free gift' },
      staffNote: `Gift added by the gift campaign service: rule ${ruleId}, missing after an express checkout`,
    });
    await db.transaction(async (tx) => {
      if (edit.ok) {
        if (await move(tx, repair, ['editing', 'interrupted'], 'repaired', { detail: null, platformOrderId: edit.orderGid }, now())) await countRepairedGift(tx, shopId, repair, { ...order, id: orderId });
      } else if (await move(tx, repair, ['editing'], 'failed', { detail: `${edit.step}: ${edit.message}` }, now())) {
        await giveBackRepair(tx, shop, repair, order);
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

/** pending → editing with budget, redemption and stock taken; or the skip, with nothing taken. */
async function reserve(db: Database, shop: Shop, repair: RepairRow, order: RepairOrder, at: Date): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      // The row's lock first: of two runs of one job, the second finds it moved and takes nothing.
      if (!(await move(tx, repair, ['pending'], 'editing', {}, at))) return false;
      await reserveRepair(tx, shop, repair, order);
      return true;
    });
  } catch (error) {
    if (!(error instanceof SkipRepair)) throw error;
    await move(db, repair, ['pending'], error.status, { detail: error.message }, at);
    return false;
  }
}
