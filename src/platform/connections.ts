/**
 * A shop's platform connection: its offline Admin API access token (docs/checkout-function.md
 * "Platform connection"). The token is sealed with AES-256-GCM under a key derived (HKDF-SHA256)
 * from PLATFORM_APP_SECRET, with the shop id as associated data: a database dump alone does not
 * give it away, and a sealed token copied to another shop's row does not open. It is never
 * returned by a route, printed by the CLI or logged; only `connectedAt` and the broken state are.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { platformConnections, shops } from '../db/schema.ts';

const SEAL_VERSION = 'v1';
const KEY_INFO = 'gcrs platform access token v1';

/**
 * The platform's offline tokens are `shpat_`/`shpca_`/`shppa_`/`shpua_` and 32 hex digits; tokens
 * from before April 2020 are 32 characters without a prefix, and the platform reserves the right
 * to change lengths. So: one word of 16 to 512 letters, digits, `_` or `-` (no spaces, nothing a
 * header could not carry).
 */
export const accessTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,512}$/, 'Expected an Admin API access token such as shpat_…: 16 to 512 letters, digits, _ or -');

export type ConnectionStatus = {
  connected: boolean;
  connectedAt: Date | null;
  /** Set when the platform refused the token (401); cleared by connecting again. */
  brokenAt: Date | null;
  brokenReason: string | null;
};

const keyOf = (secret: string): Buffer => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32));

/**
 * `v1.<iv>.<ciphertext>.<tag>` (base64url), bound to the shop.
 *
 * @example sealToken(config.platformAppSecret, shop.id, 'shpat_…') // 'v1.…'
 */
export function sealToken(secret: string, shopId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  cipher.setAAD(Buffer.from(shopId, 'utf8'));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv, body, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The token, or undefined when it does not open (another secret, another shop, tampered). */
export function openToken(secret: string, shopId: string, sealed: string): string | undefined {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== SEAL_VERSION || iv === undefined || body === undefined || tag === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(shopId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Stores (or replaces) the shop's token; a new token clears the broken state.
 *
 * @example await connectShop(db, secret, shop.id, 'shpat_…');
 */
export async function connectShop(db: Queryable, secret: string, shopId: string, token: string, now = new Date()): Promise<ConnectionStatus> {
  const sealedToken = sealToken(secret, shopId, token);
  await db
    .insert(platformConnections)
    .values({ shopId, sealedToken, connectedAt: now })
    .onConflictDoUpdate({ target: platformConnections.shopId, set: { sealedToken, connectedAt: now, brokenAt: null, brokenReason: null } });
  return { connected: true, connectedAt: now, brokenAt: null, brokenReason: null };
}

/** Forgets the shop's token; true when there was one. */
export async function disconnectShop(db: Queryable, shopId: string): Promise<boolean> {
  const deleted = await db.delete(platformConnections).where(eq(platformConnections.shopId, shopId)).returning({ shopId: platformConnections.shopId });
  return deleted.length > 0;
}

/** What GET …/platform-connection shows: never the token. */
export async function connectionStatus(db: Queryable, shopId: string): Promise<ConnectionStatus> {
  const [row] = await db
    .select({ connectedAt: platformConnections.connectedAt, brokenAt: platformConnections.brokenAt, brokenReason: platformConnections.brokenReason })
    .from(platformConnections)
    .where(eq(platformConnections.shopId, shopId));
  return row ? { connected: true, ...row } : { connected: false, connectedAt: null, brokenAt: null, brokenReason: null };
}

/** Marks the connection broken (the platform refused the token); the token is kept until replaced or removed. */
export async function markConnectionBroken(db: Queryable, shopId: string, reason: string, now = new Date()): Promise<void> {
  await db.update(platformConnections).set({ brokenAt: now, brokenReason: reason }).where(eq(platformConnections.shopId, shopId));
}

export type ShopCredentials =
  | { state: 'none' }
  /** A row whose token does not open with this secret (PLATFORM_APP_SECRET changed): connect again. */
  | { state: 'unreadable' }
  | { state: 'connected'; storeDomain: string; accessToken: string };

/**
 * The shop's domain and opened token, read at job time.
 *
 * @example const credentials = await shopCredentials(db, secret, shopId); // { state: 'none' } for an unconnected shop
 */
export async function shopCredentials(db: Queryable, secret: string | undefined, shopId: string): Promise<ShopCredentials> {
  const [row] = await db
    .select({ sealedToken: platformConnections.sealedToken, domain: shops.domain })
    .from(platformConnections)
    .innerJoin(shops, eq(shops.id, platformConnections.shopId))
    .where(eq(platformConnections.shopId, shopId));
  if (!row) return { state: 'none' };
  const accessToken = secret === undefined ? undefined : openToken(secret, shopId, row.sealedToken);
  return accessToken === undefined ? { state: 'unreadable' } : { state: 'connected', storeDomain: row.domain, accessToken };
}
