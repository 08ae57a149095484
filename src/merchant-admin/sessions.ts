/**
 * Login links and cookie sessions of the merchant admin (docs/merchant-admin.md "Sessions").
 * Both secrets name their shop (`gcl_`/`gcs_<shop id body>_<32 base62>`, like API keys), so
 * every lookup is keyed by shop, and only their SHA-256 is stored.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { adminLoginLinks, adminSessions } from '../db/schema.ts';
import { randomBase62 } from '../ids.ts';

export const LOGIN_LINK_TTL_MS = 15 * 60_000;
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60_000;
/** `last_seen_at` is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

function secretOf(kind: 'gcl' | 'gcs', shopId: string): string {
  return `${kind}_${shopId.slice('shp_'.length)}_${randomBase62(32)}`;
}

/** The shop a secret names, or undefined for text that is not one of `kind`. */
function shopIdOf(kind: 'gcl' | 'gcs', secret: string): string | undefined {
  const match = new RegExp(`^${kind}_([0-9A-Za-z]{16})_[0-9A-Za-z]{32}$`).exec(secret);
  return match ? `shp_${match[1] ?? ''}` : undefined;
}

/**
 * Creates a one-time login link token for the shop.
 *
 * @example const { token, expiresAt } = await createLoginLink(db, shop.id, new Date());
 */
export async function createLoginLink(db: Queryable, shopId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = secretOf('gcl', shopId);
  const expiresAt = new Date(now.getTime() + LOGIN_LINK_TTL_MS);
  await db.insert(adminLoginLinks).values({ shopId, tokenHash: sha256Hex(token), expiresAt, createdAt: now });
  return { token, expiresAt };
}

export type ConsumeResult = { ok: true; shopId: string } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

/** Why a link that could not be used (or was not) is unusable now, or ok when it still is. */
async function linkState(db: Queryable, shopId: string, tokenHash: string, now: Date): Promise<ConsumeResult> {
  const [row] = await db
    .select({ usedAt: adminLoginLinks.usedAt, expiresAt: adminLoginLinks.expiresAt })
    .from(adminLoginLinks)
    .where(and(eq(adminLoginLinks.shopId, shopId), eq(adminLoginLinks.tokenHash, tokenHash)));
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.usedAt !== null) return { ok: false, reason: 'used' };
  return row.expiresAt > now ? { ok: true, shopId } : { ok: false, reason: 'expired' };
}

/**
 * Whether a login link could be used now, without using it (the page a link opens, before the
 * browser submits it).
 *
 * @example const state = await peekLoginLink(db, token, new Date()); // { ok: true, shopId } | { ok: false, reason }
 */
export async function peekLoginLink(db: Queryable, token: string, now: Date): Promise<ConsumeResult> {
  const shopId = shopIdOf('gcl', token);
  if (shopId === undefined) return { ok: false, reason: 'invalid' };
  return linkState(db, shopId, sha256Hex(token), now);
}

/**
 * Uses a login link: one UPDATE sets `used_at` where it is null and the link unexpired, so of
 * two concurrent uses exactly one gets the row back.
 */
export async function consumeLoginLink(db: Queryable, token: string, now: Date): Promise<ConsumeResult> {
  const shopId = shopIdOf('gcl', token);
  if (shopId === undefined) return { ok: false, reason: 'invalid' };
  const tokenHash = sha256Hex(token);
  const where = and(eq(adminLoginLinks.shopId, shopId), eq(adminLoginLinks.tokenHash, tokenHash));
  const used = await db
    .update(adminLoginLinks)
    .set({ usedAt: now })
    .where(and(where, isNull(adminLoginLinks.usedAt), gt(adminLoginLinks.expiresAt, now)))
    .returning({ shopId: adminLoginLinks.shopId });
  if (used.length > 0) return { ok: true, shopId };
  const state = await linkState(db, shopId, tokenHash, now);
  // Not used by this call: it was used meanwhile, or it expired.
  return state.ok ? { ok: false, reason: 'used' } : state;
}

/** Opens a session; the returned value goes in the cookie and nowhere else. */
export async function createSession(db: Queryable, shopId: string, now: Date): Promise<{ value: string; expiresAt: Date }> {
  const value = secretOf('gcs', shopId);
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  await db.insert(adminSessions).values({ shopId, tokenHash: sha256Hex(value), createdAt: now, lastSeenAt: now, expiresAt });
  return { value, expiresAt };
}

/**
 * The shop of a live session (not revoked, not past its absolute end, used within the idle
 * time), refreshing its idle clock; undefined otherwise.
 */
export async function findSession(db: Queryable, value: string, now: Date): Promise<{ shopId: string } | undefined> {
  const shopId = shopIdOf('gcs', value);
  if (shopId === undefined) return undefined;
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  const key = and(eq(adminSessions.shopId, shopId), eq(adminSessions.tokenHash, sha256Hex(value)));
  const live = and(key, isNull(adminSessions.revokedAt), gt(adminSessions.expiresAt, now), gt(adminSessions.lastSeenAt, idleSince));
  const [row] = await db.select({ lastSeenAt: adminSessions.lastSeenAt }).from(adminSessions).where(live);
  if (!row) return undefined;
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(adminSessions).set({ lastSeenAt: now }).where(key);
  }
  return { shopId };
}

/** Ends a session (logout); a second call is harmless. */
export async function revokeSession(db: Queryable, value: string, now: Date): Promise<void> {
  const shopId = shopIdOf('gcs', value);
  if (shopId === undefined) return;
  await db
    .update(adminSessions)
    .set({ revokedAt: now })
    .where(and(eq(adminSessions.shopId, shopId), eq(adminSessions.tokenHash, sha256Hex(value)), isNull(adminSessions.revokedAt)));
}
