/**
 * The one way to write a shop's data, and the one commit protocol. Every write of a shop runs
 * inside `writeShop` (or, for order intake and give-backs, `writeShopUnlocked`):
 *
 * 1. one transaction, whose first statement locks the shop row and re-reads it
 *    (`SELECT … FOR UPDATE`). Writers of one shop therefore queue on that row, and each sees
 *    every change its predecessors committed — caps, plan, limits and settings are checked
 *    against `uow.shop`, never against the copy authentication read before the lock;
 * 2. outbox rows (webhooks, platform jobs) collected with `uow.enqueue` are written in that
 *    same transaction, after the work, by the outbox's one writer (outbox/enqueue.ts), so
 *    they commit exactly when the change does;
 * 3. `uow.touchRules()` bumps the version behind GET /rules' ETag in that transaction, and
 *    after the commit the rules cache is invalidated on every instance — only if touched,
 *    so a no-op (enabling a live campaign) changes no ETag;
 * 4. after every commit, before it returns, the shop's shared version is bumped
 *    (cache/shop-versions.ts), so no instance authenticates from a shop row older than it,
 *    and the storefront's cached credentials are evicted (SHOP_AUTH_TOPIC).
 *
 * `writeShopUnlocked` skips step 1's lock: orders of one shop queue on their order and counter
 * rows, never on the shop's (CONTRACT "Platform orders"), and `uow.shop` is the caller's copy.
 * Such work changes the shop row only through `touchRules`, so step 4 runs only when touched.
 *
 * Anything thrown inside rolls the whole transaction back (change, outbox rows, version) and
 * propagates unchanged; nothing is invalidated then.
 */
import { eq } from 'drizzle-orm';
import type { Database, Tx } from '../db/database.ts';
import { shops } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { writeOutbox } from '../outbox/enqueue.ts';
import type { OutboxEvent } from '../outbox/enqueue.ts';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { SHOP_AUTH_TOPIC } from '../cache/shop-entry-cache.ts';
import type { ShopVersions } from '../cache/shop-versions.ts';
import type { RulesCache } from '../rules/rules-cache.ts';
import { bumpRulesVersion, toShopRecord } from './store.ts';
import type { ShopRecord } from './store.ts';

export type ShopUnitOfWork = {
  /** The shop row as locked by this transaction (nobody else can change it until commit); writeShopUnlocked: the caller's copy. */
  readonly shop: ShopRecord;
  readonly tx: Tx;
  /** Queues outbox rows, written in this transaction after the work returns. */
  enqueue(...events: OutboxEvent[]): void;
  /** Marks GET /rules as changed: the version is bumped before commit, the cache evicted after. */
  touchRules(): void;
};

export type WriteShopDeps = {
  db: Database;
  rulesCache: Pick<RulesCache, 'invalidate'>;
  /** Bumped after every commit: API-key authentication's cached shop rows are then stale everywhere. */
  shopVersions: Pick<ShopVersions, 'bump'>;
  /** Carries SHOP_AUTH_TOPIC: the storefront's cached credentials are evicted after every commit. */
  invalidation: Pick<InvalidationBus, 'publish'>;
};

/** Locks the shop row for the rest of the transaction and returns it as it is now. */
async function lockAndReadShop(tx: Tx, shopId: string): Promise<ShopRecord> {
  const [row] = await tx.select().from(shops).where(eq(shops.id, shopId)).for('update');
  if (!row) throw notFound('Shop');
  return toShopRecord(row);
}

/**
 * Runs `work` as one unit of work of the shop (see the module comment) and returns its result.
 * Throws 404 `Shop not found` when the shop no longer exists.
 *
 * @example
 *   const ids = await writeShop(ctx, shop.id, async (uow) => {
 *     assertWithinCaps(await countForCaps(uow.tx, uow.shop.id), adding, capsOf(uow.shop));
 *     const ids = await insertCampaigns(uow.tx, uow.shop.id, entries);
 *     uow.enqueue({ kind: 'discount_sync', payload: { campaignId: ids[0], active: true } });
 *     uow.touchRules();
 *     return ids;
 *   });
 */
export async function writeShop<T>(deps: WriteShopDeps, shopId: string, work: (uow: ShopUnitOfWork) => Promise<T>): Promise<T> {
  // Invariant: the lock is the transaction's first statement. Taken any later, two writers
  // could both count, check a cap or merge settings against the same old state.
  return commitShop(deps, shopId, (tx) => lockAndReadShop(tx, shopId), work, { everyCommitChangesShop: true });
}

/**
 * {@link writeShop} without the shop row's lock, for writes that queue on their own rows (order
 * intake, give-backs): `uow.shop` is `shop` as the caller read it, and the shared versions are
 * bumped after the commit only when the work called `touchRules` (the only change it makes to
 * the shop row: a budget spent or re-opened).
 *
 * @example
 *   const result = await writeShopUnlocked(ctx, shop, (uow) => recordOrderIn(uow, order));
 */
export async function writeShopUnlocked<T>(deps: WriteShopDeps, shop: ShopRecord, work: (uow: ShopUnitOfWork) => Promise<T>): Promise<T> {
  return commitShop(deps, shop.id, async () => shop, work, { everyCommitChangesShop: false });
}

/** The protocol of the module comment, given how the transaction opens with the shop. */
async function commitShop<T>(
  deps: WriteShopDeps,
  shopId: string,
  open: (tx: Tx) => Promise<ShopRecord>,
  work: (uow: ShopUnitOfWork) => Promise<T>,
  options: { everyCommitChangesShop: boolean },
): Promise<T> {
  let touched = false;
  const result = await deps.db.transaction(async (tx) => {
    const shop = await open(tx);
    const events: OutboxEvent[] = [];
    const uow: ShopUnitOfWork = {
      shop,
      tx,
      enqueue: (...more) => {
        events.push(...more);
      },
      touchRules: () => {
        touched = true;
      },
    };
    const value = await work(uow);
    await writeOutbox(tx, shop.id, events);
    // Last: intake and give-backs lock the shop row after their counters (their lock order).
    if (touched) await bumpRulesVersion(tx, shop.id);
    return value;
  });
  // Unlocked work changes the shop row only by touching the rules: untouched, nothing to tell.
  if (touched || options.everyCommitChangesShop) await tellShopChanged(deps, shopId, { rulesTouched: touched });
  return result;
}

/**
 * Steps 3 and 4 of the module comment, after a commit: the rules cache evicted on every
 * instance when the rules were touched, then the shop's shared version bumped and the
 * storefront's cached credentials evicted. writeShop runs it; a write that must commit outside
 * one tells the instances with it — install, which creates the shop a writeShop would lock and
 * cannot nest a transaction on PGlite (install/install.ts).
 *
 * @example
 *   const outcome = await db.transaction((tx) => reinstall(tx, shop));
 *   await tellShopChanged(ctx, shop.id, { rulesTouched: false });
 */
export async function tellShopChanged(deps: Omit<WriteShopDeps, 'db'>, shopId: string, changed: { rulesTouched: boolean }): Promise<void> {
  // After the commit only: an instance that reloads now sees the new data, never the old.
  if (changed.rulesTouched) deps.rulesCache.invalidate(shopId);
  // Every commit may have changed the shop row authentication hands out (plan, limits,
  // settings, rules version), touched or not. Awaited: the caller answers only after it.
  await deps.shopVersions.bump(shopId);
  // The storefront's credential caches (in-process bus only) are evicted synchronously.
  deps.invalidation.publish(SHOP_AUTH_TOPIC, shopId);
}
