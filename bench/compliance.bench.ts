/**
 * `npm run bench:compliance`: what the compliance webhooks cost on a large shop, through their
 * own functions. On DATABASE_URL (else an embedded database in a temporary folder) it fills one
 * shop with BENCH_ORDERS orders (a tenth with a customer, 1,000 customers) and BENCH_EVENTS
 * storefront events (a tenth naming a customer), then prints the time of
 *   - a customer's export (customers/data_request) and redaction (customers/redact), and
 *   - deleting the whole shop (shop/redact), with the rows per table.
 * The shop is its own (`shp_benchcompliance`), deleted at the start and by the run itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { exportCustomer, redactCustomer } from '../src/compliance/customer-data.ts';
import { redactShop } from '../src/compliance/shop-redact.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { shops } from '../src/db/schema.ts';
import { elapsed } from '../scripts/bench-env.ts';

const env = z
  .object({ BENCH_ORDERS: z.coerce.number().int().min(1).default(200_000), BENCH_EVENTS: z.coerce.number().int().min(1).default(1_000_000) })
  .parse(process.env);
const print = (text = '') => process.stdout.write(`${text}\n`);
const SHOP = 'shp_benchcompliance';
const CUSTOMER = '7';

const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'gcrs-compliance-bench-'));
const handle = await openDatabase(loadConfig({ ...process.env, ...(dataDir ? { DATA_DIR: dataDir } : {}), LOG_LEVEL: 'silent' }));
const { db } = handle;
try {
  await db.transaction((tx) => redactShop(tx, SHOP));
  await db.insert(shops).values({ id: SHOP, domain: 'bench-compliance.myshopify.com', plan: 'scale', currency: 'USD', timezone: 'UTC' });
  let start = process.hrtime.bigint();
  await db.execute(sql`
    INSERT INTO orders (shop_id, id, customer_id, completed_at, day, currency, total, gift_lines, payload)
    SELECT ${SHOP}, 'o' || g, CASE WHEN g % 10 = 0 THEN ((g / 10) % 1000)::text END, now(), current_date, 'USD', 2500, 1,
           jsonb_build_object('id', 'o' || g, 'customerId', CASE WHEN g % 10 = 0 THEN ((g / 10) % 1000)::text END, 'lines', '[]'::jsonb)
      FROM generate_series(1, ${env.BENCH_ORDERS}) g`);
  await db.execute(sql`
    INSERT INTO storefront_events (shop_id, type, campaign_id, rule_id, variant_id, visitor_id, context)
    SELECT ${SHOP}, 'gift_added', 'cmp_1', 'rul_1', 'gid://shopify/ProductVariant/1', 'vis_' || (g % 5000),
           CASE WHEN g % 10 = 0 THEN jsonb_build_object('customerId', ((g / 10) % 1000)::text) ELSE '{}'::jsonb END
      FROM generate_series(1, ${env.BENCH_EVENTS}) g`);
  await db.execute(sql`
    INSERT INTO redemptions (shop_id, customer_id, rule_id, campaign_id, count, last_redeemed_at)
    SELECT ${SHOP}, g::text, 'rul_1', 'cmp_1', 2, now() FROM generate_series(0, 999) g`);
  await db.execute(sql`ANALYZE orders`);
  await db.execute(sql`ANALYZE storefront_events`);
  print(`${handle.kind}: seeded ${env.BENCH_ORDERS} orders and ${env.BENCH_EVENTS} events in ${elapsed(start).toFixed(0)} ms`);

  start = process.hrtime.bigint();
  const data = await exportCustomer(db, { id: SHOP, domain: 'bench-compliance.myshopify.com' }, CUSTOMER, [], new Date());
  print(`customers/data_request export: ${elapsed(start).toFixed(1)} ms (${data.orders.length} orders, ${data.storefrontEvents.length} events, ${data.redemptions.length} redemption records)`);

  start = process.hrtime.bigint();
  const counts = await db.transaction((tx) => redactCustomer(tx, SHOP, CUSTOMER, []));
  print(`customers/redact: ${elapsed(start).toFixed(1)} ms (${JSON.stringify(counts)})`);

  start = process.hrtime.bigint();
  const redaction = await db.transaction((tx) => redactShop(tx, SHOP));
  const rows = redaction.outcome === 'deleted' ? Object.entries(redaction.rows).filter(([, n]) => n > 0) : [];
  print(`shop/redact: ${elapsed(start).toFixed(0)} ms (${rows.map(([table, n]) => `${table} ${n}`).join(', ')})`);
} finally {
  await handle.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
