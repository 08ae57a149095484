/**
 * API keys. A key is `gcr_<shop id body>_<32 random base62>`: it names its shop, so the
 * lookup is keyed by shop like every other query, and only the SHA-256 of the whole key is
 * stored. The visible prefix (`gcr_<shop>_<4 chars>`) is what lists and logs show.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { apiKeys, shops } from '../db/schema.ts';
import { newId, randomBase62 } from '../ids.ts';
import { toShopRecord } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';
import { bytewise } from '../db/collation.ts';

const KEY_PATTERN = /^gcr_([0-9A-Za-z]{16})_([0-9A-Za-z]{32})$/;

export type ApiKeyRecord = { id: string; name: string; prefix: string; createdAt: Date };

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The key's visible start, safe to log; undefined for text that is not a key. */
export function keyPrefixOf(key: string): string | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? `gcr_${match[1]}_${(match[2] ?? '').slice(0, 4)}` : undefined;
}

/**
 * The shop a key names, without looking it up; undefined for text that is not a key.
 *
 * @example
 *   shopIdOfKey('gcr_0123456789abcdef_' + 'x'.repeat(32)); // 'shp_0123456789abcdef'
 */
export function shopIdOfKey(key: string): string | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? `shp_${match[1] ?? ''}` : undefined;
}

/**
 * Creates a key for the shop and returns it with the only copy of the secret.
 *
 * @example
 *   const { apiKey, key } = await createApiKey(db, shop.id, 'storefront'); // key: 'gcr_…'
 */
export async function createApiKey(
  db: Queryable,
  shopId: string,
  name: string,
): Promise<{ apiKey: ApiKeyRecord; key: string }> {
  const key = `gcr_${shopId.slice('shp_'.length)}_${randomBase62(32)}`;
  const prefix = keyPrefixOf(key) ?? 'gcr_';
  const [row] = await db
    .insert(apiKeys)
    .values({ shopId, id: newId('key'), name, prefix, keyHash: sha256(key).toString('hex') })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { apiKey: { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt }, key };
}

export async function listApiKeys(db: Queryable, shopId: string): Promise<ApiKeyRecord[]> {
  return db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.shopId, shopId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(bytewise(apiKeys.id)));
}

/** Revokes a key; false when the shop has no such live key. */
export async function revokeApiKey(db: Queryable, shopId: string, keyId: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.shopId, shopId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

export type VerifiedKey = { keyId: string; prefix: string; shop: ShopRecord };

/**
 * Finds the live key `key` names, with its shop, in one query (authentication is on every
 * request's path). The stored hash is compared in constant time so the answer's timing says
 * nothing about how much of a guess was right.
 */
export async function verifyApiKey(db: Queryable, key: string): Promise<VerifiedKey | undefined> {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const shopId = `shp_${match[1] ?? ''}`;
  const hash = sha256(key);
  const [row] = await verifyStatement(db).execute({ shopId, keyHash: hash.toString('hex') });
  if (!row) return undefined;
  const stored = Buffer.from(row.keyHash, 'hex');
  if (stored.length !== hash.length || !timingSafeEqual(stored, hash)) return undefined;
  return { keyId: row.id, prefix: row.prefix, shop: toShopRecord(row.shop) };
}

/**
 * verifyApiKey for many keys in one query (the key cache's renewals, key-refresh.ts): the live
 * ones, each with its shop, by key text; a key absent from the answer is revoked, deleted or
 * not a key. Each key is matched to its own shop's row, as verifyApiKey does.
 *
 * @example
 *   const live = await verifyApiKeys(db, [storefrontKey, serverKey]); // live.get(storefrontKey)?.shop.id
 */
export async function verifyApiKeys(db: Queryable, keys: readonly string[]): Promise<Map<string, VerifiedKey>> {
  const wanted = new Map<string, { key: string; shopId: string }>();
  for (const key of keys) {
    const shopId = shopIdOfKey(key);
    if (shopId !== undefined) wanted.set(sha256(key).toString('hex'), { key, shopId });
  }
  const found = new Map<string, VerifiedKey>();
  if (wanted.size === 0) return found;
  const shopIds = [...new Set([...wanted.values()].map(({ shopId }) => shopId))];
  const rows = await db
    .select({ shopId: apiKeys.shopId, id: apiKeys.id, keyHash: apiKeys.keyHash, prefix: apiKeys.prefix, shop: shops })
    .from(apiKeys)
    .innerJoin(shops, eq(shops.id, apiKeys.shopId))
    .where(and(inArray(apiKeys.shopId, shopIds), inArray(apiKeys.keyHash, [...wanted.keys()]), isNull(apiKeys.revokedAt)));
  for (const row of rows) {
    const asked = wanted.get(row.keyHash);
    if (asked !== undefined && asked.shopId === row.shopId) found.set(asked.key, { keyId: row.id, prefix: row.prefix, shop: toShopRecord(row.shop) });
  }
  return found;
}

const buildVerifyStatement = (db: Queryable) =>
  db
    .select({ id: apiKeys.id, keyHash: apiKeys.keyHash, prefix: apiKeys.prefix, shop: shops })
    .from(apiKeys)
    .innerJoin(shops, eq(shops.id, apiKeys.shopId))
    .where(
      and(
        eq(apiKeys.shopId, sql.placeholder('shopId')),
        eq(apiKeys.keyHash, sql.placeholder('keyHash')),
        isNull(apiKeys.revokedAt),
      ),
    )
    .prepare('verify_api_key');

// Authentication runs on every API request: the query is built once per database handle
// (drizzle's SQL building was a visible share of the 304 path's CPU), and on PostgreSQL it
// is a named prepared statement, parsed and planned once per connection.
const verifyStatements = new WeakMap<Queryable, ReturnType<typeof buildVerifyStatement>>();

function verifyStatement(db: Queryable): ReturnType<typeof buildVerifyStatement> {
  let statement = verifyStatements.get(db);
  if (!statement) {
    statement = buildVerifyStatement(db);
    verifyStatements.set(db, statement);
  }
  return statement;
}
