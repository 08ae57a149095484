/**
 * `npm run bench:catalog-import`: the install of a shop whose catalog has BENCH_PRODUCTS products
 * (10,000; BENCH_VARIANTS variants each, 2) against the stand-in platform — the session-token
 * request that installs it, then the outbox dispatcher running the import until it is done.
 * Prints the time, the Admin API requests and pages, and products per second. Store: a fresh
 * embedded PGlite, or with DATABASE_URL a fresh database created on that PostgreSQL server for
 * the run and dropped after it (the server's own databases are not touched).
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { benchStorage } from './bench-storage.ts';
import { startPlatformStandin } from '../dev/platform/platform.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';
import { catalogImports, products, variants } from '../src/db/schema.ts';
import { signSessionToken } from '../src/merchant-admin/session-token.ts';
import { createOutboxDispatcher } from '../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../src/platform-jobs.ts';
import { createShopDiscountPort } from '../src/platform/shop-discount-port.ts';
import { createWebhookSender } from '../src/webhooks/sender.ts';

const env = z
  .object({ BENCH_PRODUCTS: z.coerce.number().int().min(1).default(10_000), BENCH_VARIANTS: z.coerce.number().int().min(1).max(250).default(2), DATABASE_URL: z.string().optional() })
  .parse(process.env);
const print = (text = '') => process.stdout.write(`${text}\n`);
const APP_KEY = 'bench-app';
const SECRET = 'bench-app-secret';
const DOMAIN = 'bench-catalog.myshopify.com';

const platform = await startPlatformStandin({ appKey: APP_KEY, appSecret: SECRET });
platform.addShop({ domain: DOMAIN, name: 'Bench', currencyCode: 'USD', ianaTimezone: 'UTC' });
platform.catalog.seed(DOMAIN, env.BENCH_PRODUCTS, env.BENCH_VARIANTS);
const storage = await benchStorage('import', env.DATABASE_URL);
const config = loadConfig({
  LOG_LEVEL: 'silent',
  ...storage.settings,
  PLATFORM_APP_KEY: APP_KEY,
  PLATFORM_APP_SECRET: SECRET,
  PLATFORM_ADMIN_API_URL: platform.url,
  PLATFORM_DISCOUNT_FUNCTION_ID: 'bench-function',
});
const ctx = await createAppContext(config);
await ctx.database.ready;
const app = await buildApp(ctx);
await app.ready();
try {
  const nowS = Math.floor(Date.now() / 1000);
  const token = signSessionToken({ dest: `https://${DOMAIN}`, aud: APP_KEY, exp: nowS + 60, nbf: nowS - 1 }, SECRET);
  const started = performance.now();
  const res = await app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`install failed: ${res.statusCode} ${res.body}`);
  const installedMs = performance.now() - started;
  const shopId = (res.json() as { shop: { id: string } }).shop.id;
  const port = createShopDiscountPort({ db: ctx.db, logger: ctx.logger, secret: SECRET, functionId: 'bench-function', adminApiUrl: platform.url });
  const dispatcher = createOutboxDispatcher({ db: ctx.db, logger: ctx.logger, jobs: createPlatformJobs({ db: ctx.db, logger: ctx.logger, discountPort: port, catalogImport: { secret: SECRET, adminApiUrl: platform.url, rulesCache: ctx.rulesCache, shopVersions: ctx.shopVersions, invalidation: ctx.invalidation } }), webhooks: createWebhookSender(), pollMs: 20 });
  const before = platform.requests.length;
  while ((await dispatcher.runOnce()).claimed > 0);
  const totalMs = performance.now() - started;
  const [run] = await ctx.db.select().from(catalogImports).where(eq(catalogImports.shopId, shopId));
  const stored = (await ctx.db.select({ id: products.id }).from(products).where(eq(products.shopId, shopId))).length;
  const storedVariants = (await ctx.db.select({ id: variants.id }).from(variants).where(eq(variants.shopId, shopId))).length;
  const requests = platform.requests.slice(before);
  const importRequests = requests.filter((r) => r.query.includes('ImportProducts')).length;
  print(`store: ${env.DATABASE_URL === undefined ? 'pglite' : 'postgres'}; catalog: ${env.BENCH_PRODUCTS} products × ${env.BENCH_VARIANTS} variants`);
  print(`install (exchange + shop query + shop row): ${installedMs.toFixed(0)} ms`);
  print(`import: status ${run?.status}, ${run?.pages} pages, ${stored} products and ${storedVariants} variants stored`);
  print(`Admin API requests after install: ${requests.length} (${importRequests} product pages, ${requests.length - importRequests} discount)`);
  print(`total: ${(totalMs / 1000).toFixed(1)} s, ${((stored / totalMs) * 1000).toFixed(0)} products/s`);
} finally {
  await app.close();
  await ctx.close();
  await platform.close();
  await storage.dispose();
}
