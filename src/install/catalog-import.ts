/**
 * The catalog import (CONTRACT part three "Install"; docs/install.md "The jobs"): an outbox job
 * `catalog_import` that reads the shop's whole catalog through the Admin API, page by page
 * (PRODUCTS_QUERY), into the catalog store.
 *
 * - Resumable: each page's rows and the page's `endCursor` are written in one unit of work of
 *   the shop (shops/unit-of-work.ts), so a crash resumes after the last page stored (the outbox
 *   claims the job again once its lease ends).
 * - Seen at once: a page changes what GET /rules shows (gift titles, collections, sold-out
 *   gifts), so each page stored touches the rules: a new ETag, every instance's cache evicted.
 *   A page that makes a live rule's gift sold out or back in stock (a reinstall, campaigns live)
 *   also queues the discount sync of the campaigns giving it (catalog/gift-stock-sync.ts); a
 *   page that crosses no live gift queues none.
 * - Bounded: one attempt imports pages for at most IMPORT_ATTEMPT_MS (well inside the outbox
 *   lease), then queues the next job of the run under a fixed id and ends; the next attempt goes on.
 * - Idempotent: rows are upserted; a page is stored only if the cursor is still the one it was
 *   read after (two dispatchers on one run cannot both advance it), and a job of an older run
 *   (a reinstall started a new one) does nothing.
 * - Throttling (429 `Retry-After`), outages, `errors` arrays and answers missing a selected field
 *   fail the attempt, retried on the outbox's schedule (the `Retry-After` honoured); the error is
 *   kept on the import for the admin.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { syncingGiftStock, upsertScope } from '../catalog/gift-stock-sync.ts';
import { upsertCatalog } from '../catalog/store.ts';
import type { Queryable } from '../db/database.ts';
import { catalogImports, collections, inventoryItems, shops } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { AttemptOutcome } from '../outbox/attempt-outcome.ts';
import { writeOutbox } from '../outbox/enqueue.ts';
import { adminClient, adminRequest, PlatformAnswerError, PlatformUnauthorizedError } from '../platform/admin-client.ts';
import type { AdminClient } from '../platform/admin-client.ts';
import { IMPORT_PAGE_PRODUCTS, IMPORT_PRODUCT_COLLECTIONS, IMPORT_PRODUCT_VARIANTS, PRODUCT_VARIANTS_QUERY, PRODUCTS_QUERY } from '../platform/admin-documents.ts';
import { markConnectionBroken, shopCredentials } from '../platform/connections.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import type { WriteShopDeps } from '../shops/unit-of-work.ts';
import { importRows, productsPageSchema, productVariantsSchema } from './catalog-page.ts';
import type { ImportRows, PlatformVariant, ProductsPage } from './catalog-page.ts';

/** How long one attempt imports pages before handing over to the next job (the outbox lease is 60 s). */
export const IMPORT_ATTEMPT_MS = 20_000;

/** The unit of work's deps (the database, the caches every page tells) and the platform's address. */
export type CatalogImportOptions = WriteShopDeps & {
  /** PLATFORM_APP_SECRET: opens the shop's sealed token. */
  secret: string | undefined;
  /** PLATFORM_ADMIN_API_URL. */
  adminApiUrl: string | undefined;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Overrides IMPORT_ATTEMPT_MS (tests). */
  attemptMs?: number;
  /** Most pages one attempt stores (tests: stop after n pages, as a crash would). */
  maxPagesPerAttempt?: number;
};

/**
 * Starts a new import run for the shop in the caller's transaction: the run replaces any earlier
 * one (its jobs then do nothing) and its first job is queued. Returns the run's id.
 *
 * @example await db.transaction((tx) => startCatalogImport(tx, shop.id, new Date()));
 */
export async function startCatalogImport(tx: Queryable, shopId: string, now: Date): Promise<string> {
  const id = newId('imp');
  const run = { id, status: 'running', cursor: null, pages: 0, products: 0, variants: 0, startedAt: now, finishedAt: null, lastError: null };
  await tx.insert(catalogImports).values({ shopId, ...run }).onConflictDoUpdate({ target: catalogImports.shopId, set: run });
  await writeOutbox(tx, shopId, [{ kind: 'catalog_import', payload: { importId: id }, once: { id: `obx_${id}_0`, at: now } }]);
  return id;
}

/** The variants of `productId` after the first page of them. */
async function remainingVariants(client: AdminClient, productId: string, after: string | null): Promise<PlatformVariant[]> {
  const out: PlatformVariant[] = [];
  for (let cursor = after; cursor !== null; ) {
    const answer = await adminRequest(client, 'Importing a product\'s variants', PRODUCT_VARIANTS_QUERY, { id: productId, after: cursor }, (d) => productVariantsSchema.parse(d));
    if (answer.product === null) break;
    out.push(...answer.product.variants.nodes);
    cursor = answer.product.variants.pageInfo.hasNextPage ? answer.product.variants.pageInfo.endCursor : null;
  }
  return out;
}

/** Adds the page's products to their collections (the platform's handle wins over a stored collection's). */
async function mergeCollections(tx: Queryable, shopId: string, found: ImportRows['collections']): Promise<void> {
  for (const [id, { handle, productIds }] of found) {
    await tx.delete(collections).where(and(eq(collections.shopId, shopId), eq(collections.handle, handle), sql`${collections.id} <> ${id}`));
    await tx
      .insert(collections)
      .values({ shopId, id, handle, productIds })
      .onConflictDoUpdate({
        target: [collections.shopId, collections.id],
        set: {
          handle: sql`excluded.handle`,
          productIds: sql`(SELECT jsonb_agg(DISTINCT e) FROM jsonb_array_elements(${collections.productIds} || excluded.product_ids) AS e)`,
        },
      });
  }
}

/** A shop deleted under the import (shop/redact): writeShop's lock found no shop. */
const shopGone = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * Stores one page if the run is still at `cursor`, in one unit of work of the shop that touches
 * the rules; false when another attempt got there first or the shop is gone.
 */
async function storePage(deps: WriteShopDeps, shopId: string, run: { id: string; cursor: string | null }, page: ProductsPage, rows: ImportRows, now: Date): Promise<boolean> {
  return writeShop(deps, shopId, async (uow) => {
    const { tx } = uow;
    const done = !page.products.pageInfo.hasNextPage;
    const variantCount = rows.upsert.products.reduce((sum, p) => sum + p.variants.length, 0);
    const advanced = await tx
      .update(catalogImports)
      .set({
        cursor: page.products.pageInfo.endCursor ?? run.cursor,
        pages: sql`${catalogImports.pages} + 1`,
        products: sql`${catalogImports.products} + ${rows.upsert.products.length}`,
        variants: sql`${catalogImports.variants} + ${variantCount}`,
        lastError: null,
        ...(done ? { status: 'done', finishedAt: now } : {}),
      })
      .where(and(eq(catalogImports.shopId, shopId), eq(catalogImports.id, run.id), eq(catalogImports.status, 'running'), run.cursor === null ? isNull(catalogImports.cursor) : eq(catalogImports.cursor, run.cursor)))
      .returning({ pages: catalogImports.pages });
    if (advanced.length === 0) return false;
    // On a reinstall the shop's campaigns may be live: a gift the page sells out or brings back resyncs them.
    await syncingGiftStock(uow, upsertScope(rows.upsert), async () => {
      await upsertCatalog(tx, shopId, rows.upsert);
      if (rows.inventoryItems.length > 0) {
        await tx
          .insert(inventoryItems)
          .values(rows.inventoryItems.map((item) => ({ shopId, id: item.id, variantId: item.variantId })))
          .onConflictDoUpdate({ target: [inventoryItems.shopId, inventoryItems.id], set: { variantId: sql`excluded.variant_id` } });
      }
    });
    await mergeCollections(tx, shopId, rows.collections);
    uow.touchRules();
    return true;
  }).catch((error: unknown) => {
    if (shopGone(error)) return false;
    throw error;
  });
}

const outcome = (ok: boolean, started: number, error?: string, extra: Partial<Extract<AttemptOutcome, { ok: false }>> = {}): AttemptOutcome =>
  ok ? { ok: true, statusCode: null, durationMs: Math.round(performance.now() - started) } : { ok: false, statusCode: null, error: error ?? 'failed', durationMs: Math.round(performance.now() - started), ...extra };

/**
 * Runs one `catalog_import` attempt (payload `{ importId }`).
 *
 * @example const result = await runCatalogImport({ db, secret, adminApiUrl }, row.shopId, row.payload);
 */
export async function runCatalogImport(options: CatalogImportOptions, shopId: string, payload: Record<string, unknown>): Promise<AttemptOutcome> {
  const started = performance.now();
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const importId = payload.importId;
  if (typeof importId !== 'string') return outcome(false, started, 'Job payload has no importId', { final: true });
  const [run] = await db.select().from(catalogImports).where(eq(catalogImports.shopId, shopId));
  // A job of a finished or replaced run has nothing left to do.
  if (run === undefined || run.id !== importId || run.status !== 'running') return outcome(true, started);

  const credentials = await shopCredentials(db, options.secret, shopId);
  if (credentials.state !== 'connected') return outcome(false, started, 'The shop is not connected to the platform: install the app again');
  const client = adminClient(credentials, { ...(options.adminApiUrl === undefined ? {} : { adminApiUrl: options.adminApiUrl }), ...(options.fetch ? { fetch: options.fetch } : {}) });
  const [shop] = await db.select({ currency: shops.currency }).from(shops).where(eq(shops.id, shopId));
  if (shop === undefined) return outcome(true, started);
  let cursor = run.cursor;
  let pages = run.pages;
  try {
    // At least one page per attempt, so the next job's id (by pages stored) is always new.
    const inBudget = (stored: number) => stored === 0 || performance.now() - started < (options.attemptMs ?? IMPORT_ATTEMPT_MS);
    for (let stored = 0; inBudget(stored) && stored < (options.maxPagesPerAttempt ?? Infinity); stored += 1) {
      const variables = { first: IMPORT_PAGE_PRODUCTS, after: cursor, variants: IMPORT_PRODUCT_VARIANTS, collections: IMPORT_PRODUCT_COLLECTIONS };
      const page = await adminRequest(client, 'Importing the catalog', PRODUCTS_QUERY, variables, (d) => productsPageSchema.parse(d));
      const more = new Map<string, PlatformVariant[]>();
      for (const product of page.products.nodes) {
        if (product.variants.pageInfo.hasNextPage) more.set(product.id, await remainingVariants(client, product.id, product.variants.pageInfo.endCursor));
      }
      if (!(await storePage(options, shopId, { id: importId, cursor }, page, importRows(page, more, shop.currency), now()))) return outcome(true, started);
      if (!page.products.pageInfo.hasNextPage) return outcome(true, started);
      cursor = page.products.pageInfo.endCursor;
      pages += 1;
    }
    // Time is up: the next job of the run goes on from the stored cursor.
    await writeOutbox(db, shopId, [{ kind: 'catalog_import', payload: { importId }, once: { id: `obx_${importId}_${pages}`, at: now() } }]);
    return outcome(true, started);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.update(catalogImports).set({ lastError: message }).where(and(eq(catalogImports.shopId, shopId), eq(catalogImports.id, importId)));
    if (error instanceof PlatformUnauthorizedError) await markConnectionBroken(db, shopId, message, now());
    const retryAfterMs = error instanceof PlatformAnswerError ? error.retryAfterMs : undefined;
    const statusCode = error instanceof PlatformAnswerError ? error.statusCode : null;
    return { ...outcome(false, started, message, retryAfterMs === undefined ? {} : { retryAfterMs }), statusCode } as AttemptOutcome;
  }
}

/** What the admin shows of the shop's import. */
export async function catalogImportStatus(db: Queryable, shopId: string) {
  const [run] = await db.select().from(catalogImports).where(eq(catalogImports.shopId, shopId));
  return run;
}
