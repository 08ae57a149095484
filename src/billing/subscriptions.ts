/**
 * The shop's app subscriptions and what `app_subscriptions/update` does to its plan (CONTRACT
 * part three "Plans through the platform's billing"; docs/billing.md "The plan follows the
 * platform"). Runs inside the shop's unit of work, with the delivery claimed, so one shop's
 * deliveries apply one at a time and each at most once.
 *
 * Deliveries may arrive late and out of order; the platform's `updated_at` orders them:
 * - per subscription: a status older than the one stored changes nothing (at the same second,
 *   an ending status outranks ACTIVE, which outranks PENDING and ACCEPTED);
 * - per shop: an ACTIVE sets the plan only if no other delivery set the plan later (a late
 *   ACTIVE of a replaced subscription does not flip the plan back); an ending status sets Free
 *   only for the shop's current subscription (a stale one's cancellation changes nothing).
 */
import { PLAN_NAMES } from '@gcrs/engine';
import { and, eq, max, ne } from 'drizzle-orm';
import { queueConfigSync } from '../checkout/queue-config-sync.ts';
import type { Queryable } from '../db/database.ts';
import { appSubscriptions } from '../db/schema.ts';
import { planSchema } from '../shops/plans.ts';
import type { Plan } from '../shops/plans.ts';
import { setShopFields } from '../shops/store.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';
import { isPaidPlan } from './prices.ts';
import type { PaidPlan } from './prices.ts';

/** The platform's AppSubscriptionStatus. */
export const SUBSCRIPTION_STATUSES = ['PENDING', 'ACCEPTED', 'ACTIVE', 'FROZEN', 'CANCELLED', 'DECLINED', 'EXPIRED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Statuses that end the plan a subscription gave (CONTRACT: "sets Free"). */
const ENDING: ReadonlySet<SubscriptionStatus> = new Set(['CANCELLED', 'DECLINED', 'EXPIRED', 'FROZEN']);

/** Order of statuses stamped with the same `updated_at` second. */
const RANK: Record<SubscriptionStatus, number> = { PENDING: 0, ACCEPTED: 1, ACTIVE: 2, FROZEN: 2, CANCELLED: 3, DECLINED: 3, EXPIRED: 3 };

/**
 * The paid plan a subscription's name names (case and outer spaces aside), else undefined.
 *
 * @example planOfName('Pro'); // 'pro'
 */
export function planOfName(name: string): PaidPlan | undefined {
  const wanted = name.trim().toLowerCase();
  const plan = planSchema.options.find((candidate) => PLAN_NAMES[candidate].toLowerCase() === wanted);
  return plan === undefined || plan === 'free' ? undefined : plan;
}

/** Records a subscription the service just created (status PENDING until the platform says more). */
export async function recordPendingSubscription(db: Queryable, shopId: string, input: { id: string; plan: PaidPlan; test: boolean }): Promise<void> {
  await db.insert(appSubscriptions).values({ shopId, id: input.id, plan: input.plan, status: 'PENDING', test: input.test }).onConflictDoNothing();
}

/** Where a refused delivery is noted. */
type Log = { warn(details: object, message: string): void };

export type SubscriptionUpdate = { id: string; name: string; status: SubscriptionStatus; updatedAt: Date };

export type UpdateOutcome =
  | { applied: true; plan: Plan | undefined }
  | { applied: false; reason: 'other_shop' | 'stale' };

const later = (at: Date, status: SubscriptionStatus, storedAt: Date | null, stored: string): boolean =>
  storedAt === null || at > storedAt || (at.getTime() === storedAt.getTime() && RANK[status] > (RANK[stored as SubscriptionStatus] ?? 0));

async function setPlan(uow: ShopUnitOfWork, plan: Plan): Promise<void> {
  if (uow.shop.plan === plan) return;
  await setShopFields(uow.tx, uow.shop.id, { plan });
  // Plan gating shapes GET /rules and the checkout function's configuration.
  uow.touchRules();
  await queueConfigSync(uow.tx, uow.shop.id, new Date());
}

/**
 * Applies one `app_subscriptions/update`; `plan` is the plan set, when the delivery set one.
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => applySubscriptionUpdate(uow, { id, name: 'Pro', status: 'ACTIVE', updatedAt }, log));
 */
export async function applySubscriptionUpdate(uow: ShopUnitOfWork, update: SubscriptionUpdate, log: Log): Promise<UpdateOutcome> {
  const { tx, shop } = uow;
  const [stored] = await tx.select().from(appSubscriptions).where(eq(appSubscriptions.id, update.id));
  if (stored && stored.shopId !== shop.id) {
    log.warn({ subscriptionId: update.id }, 'app_subscriptions/update for a subscription of another shop; ignored');
    return { applied: false, reason: 'other_shop' };
  }
  if (stored && !later(update.updatedAt, update.status, stored.statusAt, stored.status)) return { applied: false, reason: 'stale' };
  const storedPlan = planSchema.safeParse(stored?.plan).data;
  const plan = (storedPlan !== undefined && isPaidPlan(storedPlan) ? storedPlan : undefined) ?? planOfName(update.name) ?? null;
  if (stored) {
    await tx.update(appSubscriptions).set({ status: update.status, statusAt: update.updatedAt }).where(and(eq(appSubscriptions.shopId, shop.id), eq(appSubscriptions.id, update.id)));
  } else {
    // Not created here (or its creation was not recorded): the platform's signed word is enough.
    await tx.insert(appSubscriptions).values({ shopId: shop.id, id: update.id, plan, status: update.status, statusAt: update.updatedAt });
  }

  if (update.status === 'ACTIVE' && plan !== null) {
    const [last] = await tx.select({ at: max(appSubscriptions.planSetAt) }).from(appSubscriptions).where(eq(appSubscriptions.shopId, shop.id));
    if (last?.at && update.updatedAt < last.at) return { applied: false, reason: 'stale' };
    await tx.update(appSubscriptions).set({ current: false }).where(and(eq(appSubscriptions.shopId, shop.id), eq(appSubscriptions.current, true), ne(appSubscriptions.id, update.id)));
    await tx.update(appSubscriptions).set({ current: true, planSetAt: update.updatedAt }).where(and(eq(appSubscriptions.shopId, shop.id), eq(appSubscriptions.id, update.id)));
    await setPlan(uow, plan);
    return { applied: true, plan };
  }
  if (ENDING.has(update.status) && stored?.current === true) {
    await tx.update(appSubscriptions).set({ current: false, planSetAt: update.updatedAt }).where(and(eq(appSubscriptions.shopId, shop.id), eq(appSubscriptions.id, update.id)));
    await setPlan(uow, 'free');
    return { applied: true, plan: 'free' };
  }
  return { applied: true, plan: undefined };
}

/**
 * `app/uninstalled`: the platform cancels an app's subscriptions when the app is removed, so the
 * shop's current subscription ends and the shop is on Free (a shop whose plan the operator set,
 * with no current subscription, keeps it). A reinstall subscribes again.
 *
 * @example await endCurrentSubscription(uow, new Date());
 */
export async function endCurrentSubscription(uow: ShopUnitOfWork, at: Date): Promise<void> {
  const ended = await uow.tx
    .update(appSubscriptions)
    .set({ current: false, status: 'CANCELLED', statusAt: at, planSetAt: at })
    .where(and(eq(appSubscriptions.shopId, uow.shop.id), eq(appSubscriptions.current, true)))
    .returning({ id: appSubscriptions.id });
  if (ended.length > 0) await setPlan(uow, 'free');
}

/** The shop's current subscription id, if it has one. */
export async function currentSubscription(db: Queryable, shopId: string): Promise<{ id: string; plan: string | null } | undefined> {
  const [row] = await db
    .select({ id: appSubscriptions.id, plan: appSubscriptions.plan })
    .from(appSubscriptions)
    .where(and(eq(appSubscriptions.shopId, shopId), eq(appSubscriptions.current, true)));
  return row;
}
