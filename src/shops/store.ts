/** Shops: create, read, change. Every other store function takes the shop this returns. */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { bytewise } from '../db/collation.ts';
import type { Queryable } from '../db/database.ts';
import { shops } from '../db/schema.ts';
import type { ShopRecord } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { Plan } from '@gcrs/engine';

export type { ShopRecord };

type ShopRow = typeof shops.$inferSelect;

/** A shops row as the record every store function takes. */
export const toShopRecord = (row: ShopRow): ShopRecord => ({
  id: row.id,
  domain: row.domain,
  name: row.name,
  plan: row.plan,
  currency: row.currency,
  timezone: row.timezone,
  limits: row.limits,
  settings: row.settings,
  rulesVersion: row.rulesVersion,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export class DuplicateDomainError extends Error {
  override name = 'DuplicateDomainError';
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
};

/** Creates a shop; throws DuplicateDomainError when the domain already has one. */
export async function createShop(
  db: Queryable,
  input: { domain: string; plan: Plan; currency: string; timezone: string; name?: string },
): Promise<ShopRecord> {
  try {
    const [row] = await db
      .insert(shops)
      .values({ id: newId('shp'), ...input })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return toShopRecord(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateDomainError(`A shop with domain ${input.domain} exists`);
    throw error;
  }
}

export async function getShop(db: Queryable, shopId: string): Promise<ShopRecord | undefined> {
  const [row] = await db.select().from(shops).where(eq(shops.id, shopId));
  return row ? toShopRecord(row) : undefined;
}

/**
 * Every shop, oldest first: the operator's overview (`npm run cli -- shop:list`), the one read
 * that is not about a single shop.
 *
 * @example
 *   const all = await listShops(db);
 */
export async function listShops(db: Queryable): Promise<ShopRecord[]> {
  const rows = await db.select().from(shops).orderBy(asc(shops.createdAt), asc(bytewise(shops.id)));
  return rows.map(toShopRecord);
}

/**
 * One page of shops for the operator (`GET /admin/v1/shops`), by id, after `afterId`; `domain`
 * narrows it to that shop. One row more than `limit` is read to know whether a next page exists.
 *
 * @example
 *   const { shops, nextAfterId } = await listShopsPage(db, { limit: 50 });
 */
export async function listShopsPage(
  db: Queryable,
  options: { domain?: string | undefined; limit: number; afterId?: string | undefined },
): Promise<{ shops: ShopRecord[]; nextAfterId: string | undefined }> {
  const where = and(
    options.domain === undefined ? undefined : eq(shops.domain, options.domain),
    options.afterId === undefined ? undefined : gt(bytewise(shops.id), options.afterId),
  );
  const rows = await db.select().from(shops).where(where).orderBy(asc(bytewise(shops.id))).limit(options.limit + 1);
  const page = rows.slice(0, options.limit).map(toShopRecord);
  return { shops: page, nextAfterId: rows.length > options.limit ? page.at(-1)?.id : undefined };
}

export async function getShopByDomain(db: Queryable, domain: string): Promise<ShopRecord | undefined> {
  const [row] = await db.select().from(shops).where(eq(shops.domain, domain));
  return row ? toShopRecord(row) : undefined;
}

export type ShopChanges = Partial<Pick<ShopRecord, 'name' | 'plan' | 'currency' | 'timezone' | 'limits' | 'settings'>>;

/**
 * Writes `changes` and bumps the rules version in one statement: plan and settings both shape
 * GET /rules. For one-off changes outside a unit of work (the CLI); the admin PATCH, which
 * merges against the stored value, goes through patchShop. Returns undefined when the shop
 * does not exist.
 */
export async function updateShop(db: Queryable, shopId: string, changes: ShopChanges): Promise<ShopRecord | undefined> {
  const [row] = await db
    .update(shops)
    .set({ ...changes, updatedAt: new Date(), rulesVersion: sql`${shops.rulesVersion} + 1` })
    .where(eq(shops.id, shopId))
    .returning();
  return row ? toShopRecord(row) : undefined;
}

/**
 * Writes `changes` alone; the caller's unit of work bumps the rules version (touchRules).
 *
 * @example
 *   await setShopFields(uow.tx, uow.shop.id, { plan: 'pro' });
 */
export async function setShopFields(tx: Queryable, shopId: string, changes: ShopChanges): Promise<ShopRecord | undefined> {
  const [row] = await tx
    .update(shops)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(shops.id, shopId))
    .returning();
  return row ? toShopRecord(row) : undefined;
}

/**
 * Bumps the version behind GET /rules' ETag; returns the new version. Handlers do not call it:
 * the unit of work does, before commit, when the work touched the rules (writeShop).
 */
export async function bumpRulesVersion(tx: Queryable, shopId: string): Promise<number> {
  const [row] = await tx
    .update(shops)
    .set({ rulesVersion: sql`${shops.rulesVersion} + 1` })
    .where(eq(shops.id, shopId))
    .returning({ rulesVersion: shops.rulesVersion });
  return row?.rulesVersion ?? 0;
}
