/**
 * Publishable storefront tokens (CONTRACT "Storefront", 2.). A token is
 * `spk_<shop id body>_<32 random base62>`: like an API key it names its shop, so the lookup
 * is keyed by shop, and only the SHA-256 of the whole token is stored with its visible start.
 * It is publishable (it sits in a headless storefront's page), so what it opens is small:
 * the storefront routes, from its allowed origins.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { bytewise } from '../db/collation.ts';
import type { Queryable } from '../db/database.ts';
import { shops, storefrontTokens } from '../db/schema.ts';
import { newId, randomBase62 } from '../ids.ts';
import { toShopRecord } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';

const TOKEN_PATTERN = /^spk_([0-9A-Za-z]{16})_([0-9A-Za-z]{32})$/;

export const MAX_ALLOWED_ORIGINS = 20;

/**
 * One allowed origin: `scheme://host[:port]`, http or https, nothing else (no path, query,
 * fragment or credentials; one trailing `/` is tolerated). Stored as the browser serialises
 * the `Origin` header (lowercase host, default port dropped), so a header compares exactly.
 */
export const originSchema = z
  .string()
  .max(255)
  .transform((text, ctx) => {
    const parsed = URL.canParse(text) ? new URL(text) : undefined;
    const bare = text.endsWith('/') ? text.slice(0, -1) : text;
    const valid =
      parsed !== undefined &&
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      parsed.username === '' &&
      parsed.password === '' &&
      parsed.pathname === '/' &&
      parsed.search === '' &&
      parsed.hash === '' &&
      !bare.slice(parsed.protocol.length + 2).includes('/');
    if (!valid) {
      ctx.addIssue({ code: 'custom', message: 'Expected an origin: http(s)://host[:port], without path, query or fragment' });
      return z.NEVER;
    }
    return parsed.origin;
  });

export const allowedOriginsSchema = z
  .array(originSchema)
  .min(1, 'allowedOrigins must name at least one origin')
  .max(MAX_ALLOWED_ORIGINS, `At most ${MAX_ALLOWED_ORIGINS} origins`)
  .transform((origins) => [...new Set(origins)]);

export type StorefrontTokenRecord = { id: string; prefix: string; allowedOrigins: string[]; createdAt: Date };

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The token's visible start (`spk_<shop>_<4 chars>`), safe to log; undefined for other text. */
export function tokenPrefixOf(token: string): string | undefined {
  const match = TOKEN_PATTERN.exec(token);
  return match ? `spk_${match[1]}_${(match[2] ?? '').slice(0, 4)}` : undefined;
}

/**
 * Creates a token for the shop and returns it with the only copy of the secret.
 *
 * @example
 *   const { record, token } = await createStorefrontToken(db, shop.id, ['https://shop.example.com']); // token: 'spk_…'
 */
export async function createStorefrontToken(
  db: Queryable,
  shopId: string,
  allowedOrigins: string[],
): Promise<{ record: StorefrontTokenRecord; token: string }> {
  const token = `spk_${shopId.slice('shp_'.length)}_${randomBase62(32)}`;
  const prefix = tokenPrefixOf(token) ?? 'spk_';
  const [row] = await db
    .insert(storefrontTokens)
    .values({ shopId, id: newId('sft'), prefix, tokenHash: sha256(token).toString('hex'), allowedOrigins })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { record: toRecord(row), token };
}

const toRecord = (row: typeof storefrontTokens.$inferSelect): StorefrontTokenRecord => ({
  id: row.id,
  prefix: row.prefix,
  allowedOrigins: row.allowedOrigins,
  createdAt: row.createdAt,
});

/** The shop's live tokens, oldest first (never the tokens themselves). */
export async function listStorefrontTokens(db: Queryable, shopId: string): Promise<StorefrontTokenRecord[]> {
  const rows = await db
    .select()
    .from(storefrontTokens)
    .where(and(eq(storefrontTokens.shopId, shopId), isNull(storefrontTokens.revokedAt)))
    .orderBy(asc(storefrontTokens.createdAt), asc(bytewise(storefrontTokens.id)));
  return rows.map(toRecord);
}

/** Revokes a token; false when the shop has no such live token. */
export async function revokeStorefrontToken(db: Queryable, shopId: string, tokenId: string): Promise<boolean> {
  const rows = await db
    .update(storefrontTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(storefrontTokens.shopId, shopId), eq(storefrontTokens.id, tokenId), isNull(storefrontTokens.revokedAt)))
    .returning({ id: storefrontTokens.id });
  return rows.length > 0;
}

export type VerifiedStorefrontToken = { tokenId: string; prefix: string; allowedOrigins: readonly string[]; shop: ShopRecord };

/**
 * The live token `token` names, with its shop, in one query; the stored hash is compared in
 * constant time. Undefined for anything else (malformed, unknown, revoked).
 *
 * @example
 *   const verified = await verifyStorefrontToken(db, request.headers['x-storefront-token']);
 */
export async function verifyStorefrontToken(db: Queryable, token: string): Promise<VerifiedStorefrontToken | undefined> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const hash = sha256(token);
  const [row] = await db
    .select({ token: storefrontTokens, shop: shops })
    .from(storefrontTokens)
    .innerJoin(shops, eq(shops.id, storefrontTokens.shopId))
    .where(
      and(
        eq(storefrontTokens.shopId, `shp_${match[1] ?? ''}`),
        eq(storefrontTokens.tokenHash, hash.toString('hex')),
        isNull(storefrontTokens.revokedAt),
      ),
    );
  if (!row) return undefined;
  const stored = Buffer.from(row.token.tokenHash, 'hex');
  if (stored.length !== hash.length || !timingSafeEqual(stored, hash)) return undefined;
  return { tokenId: row.token.id, prefix: row.token.prefix, allowedOrigins: row.token.allowedOrigins, shop: toShopRecord(row.shop) };
}
