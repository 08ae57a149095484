/**
 * `npm run bench:analytics`: on the database `npm run seed:bench` filled (DATABASE_URL, else
 * DATA_DIR), prints
 *   - p50/p95 of 90-day analytics reports through the route's own functions (readAnalytics +
 *     presentAnalytics), beside the same reports computed by scanning raw orders, for the
 *     largest shop and for shops drawn at random, and checks both answers agree;
 *   - the event ingest rate through POST /events' own path (schema parse + ingestEvents),
 *     batches of 100, BENCH_CONCURRENCY batches in flight.
 * BENCH_QUERIES and BENCH_INGEST_EVENTS size the runs.
 */
import { eq, sql } from 'drizzle-orm';
import { dateOfDayNumber, dayNumberOf } from '../src/analytics/calendar.ts';
import { presentAnalytics } from '../src/analytics/present.ts';
import { readAnalytics } from '../src/analytics/store.ts';
import type { AnalyticsRange, AnalyticsRollups } from '../src/analytics/store.ts';
import type { Database } from '../src/db/database.ts';
import { webhookEndpoints } from '../src/db/schema.ts';
import { ingestEvents } from '../src/events/ingest.ts';
import { storefrontEventBatchSchema } from '../src/events/schema.ts';
import { STOREFRONT_EVENT_TYPES } from '@gcrs/engine';
import { getShop } from '../src/shops/store.ts';
import type { ShopRecord } from '../src/shops/store.ts';
import {
  benchCampaignId,
  benchRuleId,
  benchShopId,
  CAMPAIGNS_PER_SHOP,
  elapsed,
  openBench,
  percentile,
  rowsOf,
  RULES_PER_CAMPAIGN,
} from '../scripts/bench-env.ts';
import { analyticsFromRawOrders } from './raw-orders.ts';

const RANGE_DAYS = 90;
const WARMUP = 20;

const print = (text = '') => process.stdout.write(`${text}\n`);

function at<T>(list: readonly T[], index: number): T {
  const item = list[index % list.length];
  if (item === undefined) throw new Error('empty list');
  return item;
}
const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(11);

type Timings = { rollup: number[]; raw: number[] };

async function timeReports(
  db: Database,
  pickShop: (i: number) => ShopRecord,
  count: number,
  days: number,
): Promise<Timings & { mismatches: string[] }> {
  const today = dayNumberOf(new Date().toISOString().slice(0, 10)) ?? 0;
  const timings: Timings = { rollup: [], raw: [] };
  const mismatches: string[] = [];
  const span = Math.max(0, days - RANGE_DAYS);
  for (let i = -WARMUP; i < count; i += 1) {
    const shop = pickShop(i);
    const end = today - Math.floor(Math.random() * (span + 1));
    const range: AnalyticsRange = { from: dateOfDayNumber(end - RANGE_DAYS + 1), to: dateOfDayNumber(end) };
    const run = async (read: (db: Database, shopId: string, range: AnalyticsRange) => Promise<AnalyticsRollups>) => {
      const start = process.hrtime.bigint();
      const report = presentAnalytics(await read(db, shop.id, range), range, shop.currency);
      return { report, time: elapsed(start) };
    };
    // Alternate which goes first, so caches warmed by one do not favour the other.
    let rollup;
    let raw;
    if (i % 2 === 0) {
      rollup = await run(readAnalytics);
      raw = await run(analyticsFromRawOrders);
    } else {
      raw = await run(analyticsFromRawOrders);
      rollup = await run(readAnalytics);
    }
    if (i < 0) continue;
    timings.rollup.push(rollup.time);
    timings.raw.push(raw.time);
    if (JSON.stringify(rollup.report) !== JSON.stringify(raw.report)) mismatches.push(`${shop.id} ${range.from}..${range.to}`);
  }
  return { ...timings, mismatches };
}

function printTimings(label: string, timings: Timings): void {
  const line = (name: string, values: number[]) =>
    print(`  ${name.padEnd(22)} p50 ${ms(percentile(values, 50))}   p95 ${ms(percentile(values, 95))}   max ${ms(Math.max(...values))}`);
  print(`${label} (${timings.rollup.length} reports of ${RANGE_DAYS} days)`);
  line('rollups (the route)', timings.rollup);
  line('scanning raw orders', timings.raw);
}

async function benchIngest(db: Database, shops: ShopRecord[], total: number, concurrency: number): Promise<number> {
  const batches = Math.ceil(total / 100);
  const batchFor = (n: number) => {
    const shop = at(shops, n);
    const events = Array.from({ length: 100 }, (_, i) => {
      const campaignId = benchCampaignId(shop.id, (n + i) % CAMPAIGNS_PER_SHOP);
      return {
        type: STOREFRONT_EVENT_TYPES[i % STOREFRONT_EVENT_TYPES.length],
        campaignId,
        ruleId: benchRuleId(campaignId, i % RULES_PER_CAMPAIGN),
        variantId: `gid://shopify/ProductVariant/${1 + (i % 50)}`,
        cartToken: `cart-${n}-${i % 7}`,
      };
    });
    // Parsed as the route does, from the JSON a storefront would send.
    const body: unknown = JSON.parse(
      JSON.stringify({ events, visitorId: `v-${n}`, sessionId: `s-${n}`, pageUrl: 'https://bench.example.com/cart', locale: 'en-US' }),
    );
    return { shop, body };
  };
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches) {
        const { shop, body } = batchFor(next++);
        const result = await ingestEvents(db, shop, storefrontEventBatchSchema.parse(body));
        if (result.count !== 100) throw new Error(`expected 100 accepted events, got ${result.count}`);
      }
    }),
  );
  return (batches * 100) / (elapsed(start) / 1000);
}

async function main(): Promise<void> {
  const bench = await openBench(process.env);
  const { db } = bench;
  try {
    const [orders] = await rowsOf<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM orders`);
    const [events] = await rowsOf<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM storefront_events`);
    const [shopCount] = await rowsOf<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM shops WHERE id LIKE 'shp_bench%'`);
    const shopsSeeded = Number(shopCount?.n ?? 0);
    if (shopsSeeded === 0) throw new Error('No bench shops here: run `npm run seed:bench` on this database first');
    print(`store: ${bench.kind}; ${shopsSeeded} shops, ${Number(orders?.n)} orders, ${Number(events?.n)} events`);

    const shops: ShopRecord[] = [];
    for (let i = 0; i < shopsSeeded; i += 1) {
      const shop = await getShop(db, benchShopId(i));
      if (shop) shops.push(shop);
    }
    const [largest] = await rowsOf<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM orders WHERE shop_id = ${benchShopId(0)}`);
    print(`largest shop ${benchShopId(0)}: ${Number(largest?.n)} orders over ${bench.days} days (${shops[0]?.currency}, ${shops[0]?.timezone})`);
    print();

    const big = await timeReports(db, () => at(shops, 0), bench.queries, bench.days);
    printTimings('largest shop', big);
    const any = await timeReports(db, () => at(shops, Math.floor(Math.random() * shops.length)), bench.queries, bench.days);
    printTimings('random shops', any);
    const mismatches = [...big.mismatches, ...any.mismatches];
    print(mismatches.length === 0 ? '  rollup and raw-scan answers agree on every report' : `  MISMATCH on ${mismatches.length}: ${mismatches.slice(0, 5).join(', ')}`);
    print();

    const ingestShops = shops.slice(1, 11);
    const rate = await benchIngest(db, ingestShops, bench.ingestEvents, bench.concurrency);
    print(`ingest (${bench.ingestEvents} events, batches of 100, ${bench.concurrency} in flight, no webhook endpoints): ${Math.round(rate)} events/s`);
    // Once more for a shop with a webhook endpoint: each gift_added also writes an outbox row.
    const hooked = shops[11] ?? shops[1];
    if (hooked) {
      await db.insert(webhookEndpoints).values({ shopId: hooked.id, id: 'whe_bench', url: 'https://hooks.example.com/bench', events: [], secret: 'whsec_YmVuY2g=' }).onConflictDoNothing();
      const hookedRate = await benchIngest(db, [hooked], Math.ceil(bench.ingestEvents / 4), bench.concurrency);
      print(`ingest (${Math.ceil(bench.ingestEvents / 4)} events, one shop with a webhook endpoint, 25% gift_added): ${Math.round(hookedRate)} events/s`);
      await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, 'whe_bench'));
    }
  } finally {
    await bench.handle.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
