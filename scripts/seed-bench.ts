/**
 * `npm run seed:bench`: fills a database for the analytics benchmark: by default 1,000 shops,
 * 1,000,000 orders and 10,000,000 storefront events on PostgreSQL (DATABASE_URL), a tenth of
 * that on the embedded database (DATA_DIR). BENCH_SCALE, BENCH_SHOPS, BENCH_ORDERS,
 * BENCH_EVENTS and BENCH_DAYS change the sizes. Use a database of its own: it refuses to seed
 * twice, and BENCH_RESET=1 first deletes what an earlier seed wrote.
 *
 * Rows are generated inside the database (INSERT … SELECT over generate_series), orders
 * skewed so a few shops are large (shop k is drawn as ⌊shops·u³⌋, so the first shop holds
 * about a tenth of all orders), then the rollups are computed from the orders with the
 * intake's rules; the last 1,000 orders go through the real intake (recordOrder) on top.
 */
import { sql } from 'drizzle-orm';
import { recordOrder } from '../src/orders/intake.ts';
import { orderSchema } from '../src/orders/schema.ts';
import { getShop } from '../src/shops/store.ts';
import { rawRuleFunnel } from '../bench/raw-orders.ts';
import {
  benchCampaignId,
  benchRuleId,
  benchShopId,
  CAMPAIGNS_PER_SHOP,
  elapsed,
  openBench,
  rowsOf,
  RULES_PER_CAMPAIGN,
  runSeeded,
} from './bench-env.ts';

const CHUNK = 250_000;
const EVENT_CHUNK = 1_000_000;
const INTAKE_ORDERS = 1000;
const BENCH = 'shp_bench%';

const log = (text: string) => process.stdout.write(`${text}\n`);
// Integers written into the SQL text: PostgreSQL then types them itself (a bound $n in
// make_interval or generate_series would need a cast).
const int = (value: number) => sql.raw(String(Math.trunc(value)));

async function main(): Promise<void> {
  const bench = await openBench(process.env);
  const { db } = bench;
  const total = process.hrtime.bigint();
  try {
    const [existing] = await rowsOf<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM shops WHERE id LIKE ${BENCH}`);
    if (Number(existing?.n ?? 0) > 0) {
      if (process.env.BENCH_RESET !== '1') throw new Error('This database already holds a bench seed; use a fresh one or BENCH_RESET=1');
      for (const table of ['storefront_events', 'daily_rule_stats', 'daily_campaign_stats', 'daily_totals', 'redemptions', 'orders', 'rules', 'campaigns', 'shops']) {
        await db.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(table === 'shops' ? 'id' : 'shop_id')} LIKE ${BENCH}`);
      }
      log('deleted the previous bench seed');
    }
    log(`seeding ${bench.kind}: ${bench.shops} shops, ${bench.orders} orders over ${bench.days} days, ${bench.events} events`);
    const S = bench.shops;
    // A shop index skewed toward 0: floor(S * u^3).
    const shopIndexExpr = `least(${S - 1}, floor(${S} * power(random(), 3))::int)`;
    const shopIndex = sql.raw(shopIndexExpr);
    const shopIdOf = (index: string) => sql.raw(`'shp_bench' || lpad((${index})::text, 6, '0')`);

    let step = process.hrtime.bigint();
    await runSeeded(
      db,
      0.1,
      sql`INSERT INTO shops (id, domain, plan, currency, timezone)
          SELECT ${shopIdOf('i')}, 'bench-' || i || '.example.com', 'scale',
                 (ARRAY['USD','USD','USD','EUR','JPY','GBP'])[1 + i % 6],
                 (ARRAY['UTC','America/New_York','Europe/Paris','Asia/Tokyo','America/Los_Angeles'])[1 + i % 5]
            FROM generate_series(0, ${int(S - 1)}) AS i`,
    );
    await db.execute(sql`
      INSERT INTO campaigns (shop_id, id, name, enabled, is_draft)
      SELECT s.id, 'cmp_' || substr(s.id, 5) || 'c' || c, 'Bench campaign ' || c, true, false
        FROM shops s, generate_series(0, ${int(CAMPAIGNS_PER_SHOP - 1)}) AS c WHERE s.id LIKE ${BENCH}`);
    await db.execute(sql`
      INSERT INTO rules (shop_id, id, campaign_id, position, name, enabled, condition_tree, gift_config, options)
      SELECT c.shop_id, 'rul_' || substr(c.id, 5) || 'r' || r, c.id, r, 'Bench rule ' || r, true,
             '{"type":"cart.subtotal_gte","value":5000}',
             '{"type":"fixed","gifts":[{"variantId":"gid://shopify/ProductVariant/1","quantity":1}],"fallbackOnOOS":false}',
             '{"actionType":"auto_add","discountMethod":"automatic","discountType":"percentage","discountValue":100,"discountTitle":"Free gift"}'
        FROM campaigns c, generate_series(0, ${int(RULES_PER_CAMPAIGN - 1)}) AS r WHERE c.shop_id LIKE ${BENCH}`);
    log(`  shops, campaigns, rules: ${elapsed(step).toFixed(0)} ms`);

    // Orders: 40% carry one gift line of one of the shop's campaigns; 60% have a customer.
    step = process.hrtime.bigint();
    const bulkOrders = Math.max(0, bench.orders - INTAKE_ORDERS);
    for (let first = 1; first <= bulkOrders; first += CHUNK) {
      const last = Math.min(bulkOrders, first + CHUNK - 1);
      await runSeeded(
        db,
        first / (bulkOrders + 1),
        sql`INSERT INTO orders (shop_id, id, customer_id, completed_at, day, currency, total, gift_lines, payload)
            SELECT s.id, g.order_id, g.customer_id, g.completed_at, (g.completed_at AT TIME ZONE s.timezone)::date,
                   s.currency, g.total, CASE WHEN g.gift THEN 1 ELSE 0 END,
                   jsonb_build_object(
                     'id', g.order_id, 'customerId', g.customer_id,
                     'completedAt', to_char(g.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'currency', s.currency, 'total', g.total,
                     'lines', jsonb_build_array(jsonb_build_object(
                                'productId', 'gid://shopify/Product/' || g.product, 'variantId', 'gid://shopify/ProductVariant/' || g.product,
                                'quantity', 1, 'price', g.total))
                              || CASE WHEN g.gift THEN jsonb_build_array(jsonb_build_object(
                                'productId', 'gid://shopify/Product/1', 'variantId', 'gid://shopify/ProductVariant/1',
                                'quantity', g.gift_quantity, 'price', 0,
                                'attributes', jsonb_build_object(
                                  '_svc_campaign_id', 'cmp_' || substr(s.id, 5) || 'c' || g.campaign,
                                  '_svc_rule_id', 'rul_' || substr(s.id, 5) || 'c' || g.campaign || 'r' || g.rule,
                                  '_svc_auto', 'true'))) ELSE '[]'::jsonb END)
              FROM (SELECT 'ord_bench' || i AS order_id, ${shopIndex} AS k,
                           CASE WHEN random() < 0.6 THEN (1 + floor(random() * 5000))::text END AS customer_id,
                           now() - random() * make_interval(days => ${int(bench.days)}) AS completed_at,
                           (1000 + floor(random() * 19000))::bigint AS total,
                           random() < 0.4 AS gift,
                           1 + floor(random() * 2)::int AS gift_quantity,
                           floor(random() * ${int(CAMPAIGNS_PER_SHOP)})::int AS campaign,
                           floor(random() * ${int(RULES_PER_CAMPAIGN)})::int AS rule,
                           2 + floor(random() * 500)::int AS product
                      FROM generate_series(${int(first)}, ${int(last)}) AS i) AS g
              JOIN shops s ON s.id = ${shopIdOf('g.k')}`,
      );
      log(`  orders ${last}/${bulkOrders}: ${elapsed(step).toFixed(0)} ms`);
    }

    // Rollups of the bulk orders, by the intake's rules (see src/orders/intake.ts).
    step = process.hrtime.bigint();
    await db.execute(sql`
      INSERT INTO daily_totals (shop_id, day, total_orders, total_revenue, orders_with_gifts, revenue_with_gifts)
      SELECT shop_id, day, count(*), sum(total), count(*) FILTER (WHERE gift_lines > 0), coalesce(sum(total) FILTER (WHERE gift_lines > 0), 0)
        FROM orders WHERE shop_id LIKE ${BENCH} GROUP BY shop_id, day`);
    await db.execute(sql`
      WITH per_order AS (
        SELECT o.shop_id, o.day, o.id, o.total, l->'attributes'->>'_svc_campaign_id' AS campaign_id, sum((l->>'quantity')::int) AS gifts
          FROM orders o, jsonb_array_elements(o.payload->'lines') l
         WHERE o.shop_id LIKE ${BENCH} AND o.gift_lines > 0 AND l->'attributes' ? '_svc_campaign_id'
         GROUP BY o.shop_id, o.day, o.id, o.total, campaign_id)
      INSERT INTO daily_campaign_stats (shop_id, day, campaign_id, orders_with_gifts, gifts_given, revenue_with_gifts)
      SELECT shop_id, day, campaign_id, count(*), sum(gifts), sum(total) FROM per_order GROUP BY shop_id, day, campaign_id`);
    await db.execute(sql`
      WITH per_order AS (
        SELECT DISTINCT o.shop_id, o.customer_id, o.id, o.completed_at,
               l->'attributes'->>'_svc_rule_id' AS rule_id, l->'attributes'->>'_svc_campaign_id' AS campaign_id
          FROM orders o, jsonb_array_elements(o.payload->'lines') l
         WHERE o.shop_id LIKE ${BENCH} AND o.customer_id IS NOT NULL AND o.gift_lines > 0 AND l->'attributes' ? '_svc_rule_id')
      INSERT INTO redemptions (shop_id, customer_id, rule_id, campaign_id, count, last_redeemed_at)
      SELECT shop_id, customer_id, rule_id, min(campaign_id), count(*), max(completed_at) FROM per_order GROUP BY shop_id, customer_id, rule_id`);
    log(`  rollups and redemptions: ${elapsed(step).toFixed(0)} ms`);

    // The last orders through the real intake, on top of the bulk rollups.
    step = process.hrtime.bigint();
    const intakeOrders = Math.min(INTAKE_ORDERS, bench.orders);
    // No server runs while seeding: no cache of any instance to evict after a commit.
    const intake = { db, rulesCache: { invalidate: () => {} }, shopVersions: { bump: async () => true }, invalidation: { publish: () => {} } };
    const intakeOne = async (i: number) => {
      const index = Math.min(S - 1, Math.floor(S * Math.random() ** 3));
      const shop = await getShop(db, benchShopId(index));
      if (!shop) throw new Error(`missing ${benchShopId(index)}`);
      const campaignId = benchCampaignId(shop.id, i % CAMPAIGNS_PER_SHOP);
      const total = 1000 + Math.floor(Math.random() * 19_000);
      const order = orderSchema.parse({
        id: `ord_bench_intake${i}`,
        customerId: String(1 + (i % 5000)),
        completedAt: new Date(Date.now() - Math.random() * bench.days * 86_400_000).toISOString(),
        currency: shop.currency,
        total,
        lines: [
          { productId: '2', variantId: '2', quantity: 1, price: total },
          ...(i % 2 === 0
            ? [{ productId: '1', variantId: '1', quantity: 1, price: 0, attributes: { _svc_campaign_id: campaignId, _svc_rule_id: benchRuleId(campaignId, i % RULES_PER_CAMPAIGN) } }]
            : []),
        ],
      });
      await recordOrder(intake, shop, order);
    };
    let next = 0;
    const lanes = Array.from({ length: bench.concurrency }, async () => {
      while (next < intakeOrders) await intakeOne(next++);
    });
    await Promise.all(lanes);
    log(`  ${intakeOrders} orders through recordOrder: ${elapsed(step).toFixed(0)} ms`);

    // Events, received over the last 120 days (so the 90-day retention has work to do). The
    // two secondary indexes are dropped for the load and rebuilt once after it (far faster
    // than maintaining them row by row), with the migration's exact names and definitions.
    step = process.hrtime.bigint();
    await db.execute(sql`DROP INDEX IF EXISTS storefront_events_shop_campaign_idx`);
    await db.execute(sql`DROP INDEX IF EXISTS storefront_events_shop_received_idx`);
    try {
      for (let first = 1; first <= bench.events; first += EVENT_CHUNK) {
        const last = Math.min(bench.events, first + EVENT_CHUNK - 1);
        await runSeeded(
          db,
          first / (bench.events + 1),
          sql`INSERT INTO storefront_events (shop_id, type, campaign_id, rule_id, variant_id, cart_token, visitor_id, session_id, context, received_at)
              SELECT g.shop_id, (ARRAY['gift_added','gift_removed','choice_shown','choice_selected'])[1 + g.i % 4],
                     'cmp_' || substr(g.shop_id, 5) || 'c' || g.campaign,
                     'rul_' || substr(g.shop_id, 5) || 'c' || g.campaign || 'r' || g.rule,
                     'gid://shopify/ProductVariant/' || (1 + g.i % 997), 'cart-' || (g.i % 400009), 'v-' || (g.i % 250007), NULL, NULL,
                     now() - random() * interval '120 days'
                FROM (SELECT i, ${shopIdOf(shopIndexExpr)} AS shop_id,
                             floor(random() * ${int(CAMPAIGNS_PER_SHOP)})::int AS campaign,
                             floor(random() * ${int(RULES_PER_CAMPAIGN)})::int AS rule
                        FROM generate_series(${int(first)}, ${int(last)}) AS i) AS g
               ORDER BY g.shop_id`,
        );
        log(`  events ${last}/${bench.events}: ${elapsed(step).toFixed(0)} ms`);
      }
    } finally {
      step = process.hrtime.bigint();
      await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL maintenance_work_mem = '256MB'`);
        await tx.execute(sql`CREATE INDEX IF NOT EXISTS storefront_events_shop_campaign_idx ON storefront_events USING btree (shop_id, campaign_id)`);
        await tx.execute(sql`CREATE INDEX IF NOT EXISTS storefront_events_shop_received_idx ON storefront_events USING btree (shop_id, received_at)`);
      });
      log(`  event indexes rebuilt: ${elapsed(step).toFixed(0)} ms`);
    }

    // The funnel rollup of the bulk events and orders (and of the intake orders, which counted
    // theirs already: the table is refilled from the raw rows).
    step = process.hrtime.bigint();
    await db.execute(sql`DELETE FROM daily_rule_stats WHERE shop_id LIKE ${BENCH}`);
    await db.execute(sql`
      INSERT INTO daily_rule_stats (shop_id, day, rule_id, campaign_id, choices_shown, choices_selected, gifts_added, gifts_removed, offers_shown, orders_with_gifts)
      ${rawRuleFunnel(sql`LIKE ${BENCH}`)}`);
    log(`  funnel rollup: ${elapsed(step).toFixed(0)} ms`);

    step = process.hrtime.bigint();
    await db.execute(sql`ANALYZE`);
    log(`  analyze: ${elapsed(step).toFixed(0)} ms`);
    log(`seeded in ${(elapsed(total) / 1000).toFixed(1)} s`);
  } finally {
    await bench.handle.close();
  }
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncause: ${error.cause.message}` : '';
  process.stderr.write(`seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}\n`);
  process.exit(1);
});
