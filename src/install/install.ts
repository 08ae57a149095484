/**
 * Install by token exchange (CONTRACT part three "Install: token exchange"; docs/install.md).
 * A verified session token of a platform shop that the service does not know, or whose platform
 * connection is missing, broken or unreadable, installs the app for that shop:
 *
 * 1. the session token is exchanged for an offline access token (token-exchange.ts);
 * 2. the shop's name, base currency and timezone are read once (`shop` query);
 * 3. in one transaction: the shop is created on Free (or, on a reinstall, found with all its
 *    data), the token stored sealed, and the outbox jobs queued — the catalog import and the
 *    discount setup (the automatic app discount created with its configuration).
 *
 * All of it runs under a transaction-scoped advisory lock on the shop's domain, re-checked once
 * held, so two first loads at once (on any number of instances) install once: the second finds
 * the first's shop connected. A refused or failed exchange, or a `shop` answer that is not what
 * the schema says, writes nothing: no shop row, or the old connection untouched.
 *
 * Not a writeShop: a new shop has no row to lock yet, and PGlite cannot nest a unit of work in
 * this transaction. A reinstall (the shop renamed, its connection replaced) therefore tells
 * every instance after its commit with the unit of work's own after-commit steps
 * (`tellShopChanged`).
 */
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { platformConnections, shops } from '../db/schema.ts';
import { writeOutbox } from '../outbox/enqueue.ts';
import { adminClient, adminRequest, PlatformAnswerError, PlatformUnauthorizedError } from '../platform/admin-client.ts';
import { SHOP_QUERY } from '../platform/admin-documents.ts';
import { connectShop, openToken } from '../platform/connections.ts';
import { createShop, setShopFields, toShopRecord } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';
import { tellShopChanged } from '../shops/unit-of-work.ts';
import type { WriteShopDeps } from '../shops/unit-of-work.ts';
import { startCatalogImport } from './catalog-import.ts';
import { exchangeSessionToken } from './token-exchange.ts';

/** The unit of work's deps (the database, and the caches a reinstall tells), and the app's platform settings. */
export type InstallDeps = WriteShopDeps & {
  logger: Logger;
  appKey: string;
  appSecret: string;
  /** PLATFORM_ADMIN_API_URL. */
  adminApiUrl: string | undefined;
  /** PLATFORM_DISCOUNT_FUNCTION_ID: without it no discount can be created, so none is queued. */
  functionId: string | undefined;
  now: () => Date;
  fetch?: typeof fetch;
};

export type InstallOutcome =
  | { ok: true; shop: ShopRecord; installed: 'no' | 'new' | 'reconnected' }
  /** `refused`: the platform refused the session token or the app's credentials; `unavailable`: it did not answer as the schema says (try again). */
  | { ok: false; kind: 'refused' | 'unavailable'; detail: string; retryAfterMs?: number };

/**
 * A shop domain the platform issues (`<name>.myshopify.com`): only such a shop can be installed.
 * A shop the operator created under another domain (self-hosted) signs in as before, uninstalled.
 */
export const PLATFORM_SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

const shopAnswerSchema = z.object({
  shop: z.object({ name: z.string(), currencyCode: z.string().regex(/^[A-Z]{3}$/), ianaTimezone: z.string().min(1) }),
});

type InstallState = { shop: ShopRecord | undefined; connected: boolean };

/** The shop of `domain` and whether its connection is usable (present, not broken, opens with this secret). */
async function installState(db: Queryable, domain: string, secret: string): Promise<InstallState> {
  const [row] = await db
    .select({ shop: shops, sealedToken: platformConnections.sealedToken, brokenAt: platformConnections.brokenAt })
    .from(shops)
    .leftJoin(platformConnections, eq(platformConnections.shopId, shops.id))
    .where(eq(shops.domain, domain));
  if (!row) return { shop: undefined, connected: false };
  const connected = row.sealedToken !== null && row.brokenAt === null && openToken(secret, row.shop.id, row.sealedToken) !== undefined;
  return { shop: toShopRecord(row.shop), connected };
}

/**
 * The shop a verified session token names, installed first when it needs to be; `shop`
 * undefined (ok) for an unknown shop that is not a platform shop.
 *
 * @example const outcome = await ensureInstalled(deps, 'acme.myshopify.com', jwt);
 */
export async function ensureInstalled(deps: InstallDeps, domain: string, sessionToken: string): Promise<InstallOutcome | { ok: true; shop: undefined }> {
  const before = await installState(deps.db, domain, deps.appSecret);
  if (before.shop && before.connected) return { ok: true, shop: before.shop, installed: 'no' };
  if (!PLATFORM_SHOP_DOMAIN.test(domain)) return before.shop ? { ok: true, shop: before.shop, installed: 'no' } : { ok: true, shop: undefined };

  const log = deps.logger.child({ component: 'install', shopDomain: domain });
  const outcome = await deps.db.transaction(async (tx): Promise<InstallOutcome> => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`gcrs install ${domain}`}))`);
    const held = await installState(tx, domain, deps.appSecret);
    if (held.shop && held.connected) return { ok: true, shop: held.shop, installed: 'no' };

    const exchanged = await exchangeSessionToken(domain, sessionToken, { appKey: deps.appKey, appSecret: deps.appSecret, adminApiUrl: deps.adminApiUrl, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
    if (!exchanged.ok) {
      log.warn({ refused: exchanged.refused, error: exchanged.error }, 'token exchange failed: nothing installed');
      if (exchanged.refused) return { ok: false, kind: 'refused', detail: exchanged.error };
      return { ok: false, kind: 'unavailable', detail: exchanged.error, ...(exchanged.retryAfterMs === undefined ? {} : { retryAfterMs: exchanged.retryAfterMs }) };
    }
    let info: z.output<typeof shopAnswerSchema>['shop'];
    try {
      const client = adminClient({ storeDomain: domain, accessToken: exchanged.accessToken }, { ...(deps.adminApiUrl === undefined ? {} : { adminApiUrl: deps.adminApiUrl }), ...(deps.fetch ? { fetch: deps.fetch } : {}) });
      info = (await adminRequest(client, 'Reading the shop', SHOP_QUERY, {}, (d) => shopAnswerSchema.parse(d))).shop;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      log.warn({ error: detail }, 'reading the shop failed: nothing installed');
      if (error instanceof PlatformUnauthorizedError) return { ok: false, kind: 'refused', detail };
      const retryAfterMs = error instanceof PlatformAnswerError ? error.retryAfterMs : undefined;
      return { ok: false, kind: 'unavailable', detail, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }

    const now = deps.now();
    const shop = held.shop
      ? ((await setShopFields(tx, held.shop.id, { name: info.name })) ?? held.shop)
      : await createShop(tx, { domain, plan: 'free', currency: info.currencyCode, timezone: info.ianaTimezone, name: info.name });
    await connectShop(tx, deps.appSecret, shop.id, exchanged.accessToken, now);
    await startCatalogImport(tx, shop.id, now);
    if (deps.functionId !== undefined) await writeOutbox(tx, shop.id, [{ kind: 'discount_sync', payload: { setup: true } }], now);
    else log.warn({ shopId: shop.id }, 'PLATFORM_DISCOUNT_FUNCTION_ID is not set: no gift discount is created for the installed shop');
    log.info({ shopId: shop.id, reinstall: held.shop !== undefined, scope: exchanged.scope }, 'app installed');
    return { ok: true, shop, installed: held.shop ? 'reconnected' : 'new' };
  });
  // A reinstall changed a shop that instances may hold in memory (its name, its connection).
  if (outcome.ok && outcome.installed === 'reconnected') await tellShopChanged(deps, outcome.shop.id, { rulesTouched: false });
  return outcome;
}
