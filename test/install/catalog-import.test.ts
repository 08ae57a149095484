/**
 * The catalog import job (docs/install.md "The jobs") against the stand-in platform, both
 * stores: the whole catalog (products, variants with inventory and inventory items, collections)
 * over pages, resumable from the stored cursor, idempotent, and retried with backoff when the
 * platform throttles or answers what the schema does not say.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactRules } from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig } from '@gcrs/engine/checkout';
import { catalogImports, collections, inventoryItems, outbox, products, shops, variants } from '../../src/db/schema.ts';
import { runCatalogImport } from '../../src/install/catalog-import.ts';
import { deliver } from '../platform-webhooks/fixtures.ts';
import { answerErrors } from '../support/admin-schema.ts';
import { asMerchant, caches, createInstallWorld, drain, dispatcher, SECRET, sessionToken } from './fixtures.ts';
import type { InstallWorld } from './fixtures.ts';

let world: InstallWorld;
beforeAll(async () => {
  world = await createInstallWorld();
});
afterAll(async () => {
  await world.t.close();
  await world.platform.close();
});

/** Installs `domain` with `count` products (2 variants each) and one product of 23 variants; returns the shop id. */
async function install(domain: string, count: number): Promise<string> {
  world.platform.addShop({ domain });
  const catalog = world.platform.catalog.seed(domain, count);
  catalog.products.push({
    id: 999_001,
    title: 'Many sizes',
    status: 'UNLISTED',
    variants: Array.from({ length: 23 }, (_, v) => ({ id: 999_001_000 + v, title: `S${v}`, inventoryQuantity: v, inventoryPolicy: 'DENY' as const, tracked: v !== 3 })),
    collections: [7001],
  });
  const res = await asMerchant(world, sessionToken(domain));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { shop: { id: string } }).shop.id;
}

const count = async (table: typeof products | typeof variants | typeof inventoryItems, shopId: string) =>
  (await world.t.ctx.db.select().from(table).where(eq(table.shopId, shopId))).length;
const run = async (shopId: string) => (await world.t.ctx.db.select().from(catalogImports).where(eq(catalogImports.shopId, shopId)))[0];
const importJobs = (shopId: string) => world.t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shopId), eq(outbox.kind, 'catalog_import')));

describe('the catalog import', () => {
  it('imports every product, variant (inventory included), inventory item and collection, over pages', async () => {
    const shopId = await install('cat-all.myshopify.com', 60);
    world.platform.requests.length = 0;
    await drain(world);
    expect(await run(shopId)).toMatchObject({ status: 'done', pages: 3, products: 61, variants: 143, lastError: null });
    expect([await count(products, shopId), await count(variants, shopId), await count(inventoryItems, shopId)]).toEqual([61, 143, 143]);
    const [featured] = await world.t.ctx.db.select().from(collections).where(and(eq(collections.shopId, shopId), eq(collections.handle, 'featured')));
    expect(featured?.productIds).toHaveLength(7);
    // The admin's catalog shows the platform's values: UNLISTED is active, an untracked variant CONTINUE.
    const listed = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/catalog/products?q=Many` })).json() as { products: Array<{ status: string; variants: Array<{ title: string; inventoryQuantity: number; inventoryPolicy: string }> }> };
    expect(listed.products[0]?.status).toBe('active');
    expect(listed.products[0]?.variants.find((v) => v.title === 'S3')).toMatchObject({ inventoryQuantity: 3, inventoryPolicy: 'CONTINUE' });
    expect(listed.products[0]?.variants).toHaveLength(23);
    expect(listed.products[0]).toMatchObject({ imageUrl: null });
    // The featured image and each variant's price (the platform's decimal, in the shop's minor units).
    const first = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/catalog/products?q=Product%201001` })).json() as { products: Array<{ imageUrl: string | null; variants: Array<{ price: number | null }> }> };
    expect(first.products[0]?.imageUrl).toBe(`${world.platform.url}/cdn/product.svg?id=1001`);
    expect(first.products[0]?.variants.map((v) => v.price)).toEqual([3000, 500]);
    const image = await fetch(first.products[0]?.imageUrl ?? '');
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    const noImage = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/catalog/products?q=Product%201005` })).json() as { products: Array<{ imageUrl: string | null }> };
    expect(noImage.products[0]?.imageUrl).toBeNull();
    // What was sent is what the schema allows, and what the stand-in answered is what the schema says.
    const sent = world.platform.requests.filter((r) => /ImportProducts|ImportProductVariants/.test(r.query));
    expect(sent.length).toBe(4);
    for (const request of sent) expect(answerErrors(request)).toEqual([]);
  });

  it('resumes after the cursor kept when an attempt stops, and a replayed page changes nothing', async () => {
    const shopId = await install('cat-resume.myshopify.com', 60);
    // One page per attempt: each attempt stores a page and queues the next job, as after a crash.
    await dispatcher(world, { maxPagesPerAttempt: 1 }).runOnce();
    const afterOne = await run(shopId);
    expect(afterOne).toMatchObject({ status: 'running', pages: 1, products: 25 });
    expect(afterOne?.cursor).toEqual(expect.any(String));
    expect(await count(products, shopId)).toBe(25);
    // The first job replayed (a dispatcher that outlived its lease) goes on from the stored cursor: the next page, never the first again.
    const [firstJob] = await importJobs(shopId);
    await runCatalogImport({ ...caches(world.t), db: world.t.ctx.db, secret: SECRET_OF(world), adminApiUrl: world.platform.url, maxPagesPerAttempt: 1 }, shopId, firstJob?.payload ?? {});
    expect((await run(shopId))?.pages).toBe(2);
    await drain(world, { maxPagesPerAttempt: 1 });
    expect(await run(shopId)).toMatchObject({ status: 'done', pages: 3, products: 61 });
    expect(await count(products, shopId)).toBe(61);
    // A new run (a reinstall) imports again over the same rows: nothing doubled.
    await world.t.ctx.db.update(catalogImports).set({ status: 'running', cursor: null, pages: 0, products: 0, variants: 0 }).where(eq(catalogImports.shopId, shopId));
    await runCatalogImport({ ...caches(world.t), db: world.t.ctx.db, secret: SECRET_OF(world), adminApiUrl: world.platform.url }, shopId, { importId: (await run(shopId))?.id });
    expect([await count(products, shopId), await count(variants, shopId)]).toEqual([61, 143]);
    const [featured] = await world.t.ctx.db.select().from(collections).where(and(eq(collections.shopId, shopId), eq(collections.handle, 'featured')));
    expect(featured?.productIds).toHaveLength(7);
  });

  it('each page stored touches the rules: the ETag held before the page answers 200 with a new tag, not 304', async () => {
    const shopId = await install('cat-etag.myshopify.com', 30);
    const rules = (headers: Record<string, string> = {}) => world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/rules`, headers });
    const before = await rules();
    expect(before.statusCode).toBe(200);
    const etag = String(before.headers.etag);
    expect((await rules({ 'if-none-match': etag })).statusCode).toBe(304);
    // The import job alone (not the discount setup queued beside it), one page.
    const [job] = await importJobs(shopId);
    const options = { ...caches(world.t), db: world.t.ctx.db, secret: SECRET_OF(world), adminApiUrl: world.platform.url, maxPagesPerAttempt: 1 };
    expect(await runCatalogImport(options, shopId, job?.payload ?? {})).toMatchObject({ ok: true });
    expect((await run(shopId))?.pages).toBe(1);
    const after = await rules({ 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    // The next page: a new tag again.
    const second = String(after.headers.etag);
    expect(await runCatalogImport(options, shopId, job?.payload ?? {})).toMatchObject({ ok: true });
    expect((await run(shopId))?.pages).toBe(2);
    expect((await rules({ 'if-none-match': second })).statusCode).toBe(200);
  });

  it('a throttled, failing or malformed answer is retried with backoff (Retry-After honoured) and the import then completes', async () => {
    const shopId = await install('cat-flaky.myshopify.com', 30);
    const faults = world.platform.catalog.faults;
    const attempt = async () => (await dispatcher(world).runOnce());
    const pending = async () => (await importJobs(shopId)).find((j) => j.status === 'pending');

    faults.inject({ kind: 'throttled', retryAfterSeconds: 120 });
    expect(await attempt()).toMatchObject({ retrying: 1 });
    const throttled = await pending();
    expect(throttled?.lastError).toMatch(/HTTP 429/);
    expect((throttled?.nextAttemptAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(100_000);
    expect((await run(shopId))?.lastError).toMatch(/HTTP 429/);
    // Reported in the admin (the merchant's mount reads the same route).
    const shown = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/platform-connection` })).json() as { catalogImport: Record<string, unknown> };
    expect(shown.catalogImport).toMatchObject({ status: 'running', pages: 0, lastError: expect.stringMatching(/HTTP 429/) });

    for (const fault of [{ kind: 'errors', message: 'Internal error' }, { kind: 'missing', path: ['products', 'pageInfo'] }, { kind: 'outage', status: 502 }] as const) {
      faults.inject(fault);
      world.ahead.ms += 3_600_000;
      expect(await attempt()).toMatchObject({ retrying: 1 });
    }
    expect((await pending())?.lastError).toMatch(/HTTP 502/);
    expect(await count(products, shopId)).toBe(0);
    world.ahead.ms += 24 * 3_600_000;
    await drain(world);
    expect(await run(shopId)).toMatchObject({ status: 'done', products: 31, lastError: null });
  });

  it('a revoked token marks the connection broken, and the next session token reconnects the shop', async () => {
    const domain = 'cat-revoked.myshopify.com';
    const shopId = await install(domain, 5);
    world.platform.shops.get(domain)?.accessTokens.clear();
    // The import and the discount setup both meet the 401.
    expect(await dispatcher(world).runOnce()).toMatchObject({ claimed: 2, retrying: 2 });
    expect((await run(shopId))?.lastError).toMatch(/refused the access token \(401\)/);
    const status = (await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/platform-connection` })).json() as Record<string, unknown>;
    expect(status).toMatchObject({ broken: true });
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    world.ahead.ms += 24 * 3_600_000;
    await drain(world);
    expect(await run(shopId)).toMatchObject({ status: 'done', products: 6 });
    expect((await world.t.ctx.db.select().from(shops).where(eq(shops.domain, domain))).length).toBe(1);
  });
});

describe('the catalog import on a reinstall, campaigns live', () => {
  it('a page that sells out or brings back a live rule\'s gift queues one discount sync for its campaign; a page that crosses none queues nothing', async () => {
    const domain = 'cat-reinstall.myshopify.com';
    const shopId = await install(domain, 3);
    await drain(world);
    // Product 1002's first variant: 1 in stock, policy DENY.
    const gift = world.platform.catalog.catalogOf(domain).products.find((p) => p.id === 1002)?.variants[0];
    if (gift === undefined) throw new Error('no gift variant');
    const campaign = { name: 'Gift', enabled: true, isDraft: false, rules: [{ name: 'Gift', enabled: true, conditionTree: { type: 'cart.subtotal_gte', value: 1000 },
      giftConfig: { type: 'fixed', gifts: [{ variantId: `gid://shopify/ProductVariant/${gift.id}`, quantity: 1 }] }, options: { actionType: 'auto_add' } }] };
    const imported = await world.t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/campaigns/import`, payload: { campaigns: [campaign] } });
    expect(imported.statusCode, imported.body).toBe(200);
    const [campaignId] = (imported.json() as { campaignIds: string[] }).campaignIds;
    const syncs = async () => (await world.t.ctx.db.select({ payload: outbox.payload }).from(outbox).where(and(eq(outbox.shopId, shopId), eq(outbox.kind, 'discount_sync')))).filter((row) => row.payload.campaignId === campaignId).length;
    const offered = async () => ((await world.t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/rules` })).json() as { rules: unknown[] }).rules.length;
    /** A new run (as a reinstall starts) over the whole catalog, the import job alone. */
    const importAgain = async () => {
      await world.t.ctx.db.update(catalogImports).set({ status: 'running', cursor: null, pages: 0, products: 0, variants: 0 }).where(eq(catalogImports.shopId, shopId));
      const options = { ...caches(world.t), db: world.t.ctx.db, secret: SECRET_OF(world), adminApiUrl: world.platform.url };
      expect(await runCatalogImport(options, shopId, { importId: (await run(shopId))?.id })).toMatchObject({ ok: true });
      expect(await run(shopId)).toMatchObject({ status: 'done' });
    };
    expect(await offered()).toBe(1);

    // Uninstalled (the campaign disabled), the gift sells out meanwhile; after the reinstall the
    // merchant enables the campaign again before the import has run: the import brings the news.
    expect((await deliver(world.t, { id: 1, domain }, { topic: 'app/uninstalled', domain, secret: SECRET, webhookId: `wh-uninstall-${domain}` })).statusCode).toBe(200);
    gift.inventoryQuantity = 0;
    expect((await asMerchant(world, sessionToken(domain))).statusCode).toBe(200);
    const enabled = await world.t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/campaigns/${campaignId}/enable?force=1` });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(await offered()).toBe(1);
    const settled = await syncs();
    /** The gifts of the rules in the configuration the platform's discount holds. */
    const configured = () => {
      const [discount] = world.platform.discounts.discounts.get(domain) ?? [];
      const raw = world.platform.discounts.metafields.get(domain)?.get(`${discount?.id} $app:gifts.config`);
      return compactRules(JSON.parse(raw ?? 'null') as CheckoutFunctionConfig).map((rule) => JSON.stringify(rule?.[3][0]));
    };
    const [job] = (await importJobs(shopId)).filter((j) => j.status === 'pending');
    const options = { ...caches(world.t), db: world.t.ctx.db, secret: SECRET_OF(world), adminApiUrl: world.platform.url };
    expect(await runCatalogImport(options, shopId, job?.payload ?? {})).toMatchObject({ ok: true });
    expect(await syncs()).toBe(settled + 1);
    expect(await offered()).toBe(0);
    // The sync writes the discount's configuration on the platform: without the sold-out gift's rule.
    await drain(world);
    expect(configured()).toEqual([]);

    // The same catalog again: nothing crossed, nothing queued.
    await importAgain();
    expect(await syncs()).toBe(settled + 1);
    // Back in stock: one more.
    gift.inventoryQuantity = 4;
    await importAgain();
    expect(await syncs()).toBe(settled + 2);
    expect(await offered()).toBe(1);
    await drain(world);
    expect(configured()).toEqual([JSON.stringify(gift.id)]);
  });
});

const SECRET_OF = (w: InstallWorld) => w.t.config.platformAppSecret;
