/**
 * Many small shops for the GET /rules scale bench, written in a few statements (INSERT …
 * SELECT over generate_series, keys hashed by the database's sha256()), so 10,000 shops
 * with their campaigns, rules and API keys take seconds, not the admin API's minutes.
 * Shop i is `shp_rb<i, 14 digits>` and its key is `benchShopKey(i)`: the bench derives
 * the keys without reading them back.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/database.ts';

const pad = (i: number, width: number) => String(i).padStart(width, '0');

/** The API key of bench shop `i` (the form `gcr_<16 base62>_<32 base62>` of api-keys/store.ts). */
export const benchShopKey = (i: number): string => `gcr_rb${pad(i, 14)}_${pad(i, 32)}`;

/**
 * Key `j` (≥ 1) of bench shop 0 besides its first, `benchShopKey(0)`: the keys the bench's
 * one-shop-many-keys side spreads its load over.
 */
export const benchShopZeroKey = (j: number): string => `gcr_rb${pad(0, 14)}_k${pad(j, 31)}`;

/** SQL text that builds the same key from the integer `i` inside the database. */
const keyExpr = `'gcr_rb' || lpad(i::text, 14, '0') || '_' || lpad(i::text, 32, '0')`;
const zeroKeyExpr = `'gcr_rb' || lpad('0', 14, '0') || '_k' || lpad(j::text, 31, '0')`;

/**
 * Writes shops 0 … count−1 (Scale plan), each with one live campaign of `rules` rules made by
 * `rule(r)` (the same rules in every shop) and one API key, and `shopZeroKeys` more keys of
 * shop 0 (benchShopZeroKey 1 … shopZeroKeys).
 *
 * @example
 *   await seedShops(ctx.db, { count: 10_000, rules: 10, rule: benchRule });
 */
export async function seedShops(
  db: Database,
  options: { count: number; rules: number; shopZeroKeys?: number; rule: (r: number) => { name: string; conditionTree: unknown; giftConfig: unknown; options: unknown } },
): Promise<void> {
  const last = sql.raw(String(options.count - 1));
  const templates = JSON.stringify(Array.from({ length: options.rules }, (_, r) => options.rule(r)));
  // A PostgreSQL database keeps an earlier run's shops: start from none.
  for (const table of ['rules', 'campaigns', 'api_keys', 'shops']) {
    await db.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(table === 'shops' ? 'id' : 'shop_id')} LIKE 'shp_rb%'`);
  }
  await db.execute(sql`
    INSERT INTO shops (id, domain, plan, currency, timezone)
    SELECT 'shp_rb' || lpad(i::text, 14, '0'), 'rules-bench-' || i || '.example.com', 'scale', 'USD', 'UTC'
      FROM generate_series(0, ${last}) AS i`);
  await db.execute(sql`
    INSERT INTO api_keys (shop_id, id, name, prefix, key_hash)
    SELECT 'shp_rb' || lpad(i::text, 14, '0'), 'key_rb' || i, 'bench',
           left(${sql.raw(keyExpr)}, 25), encode(sha256(convert_to(${sql.raw(keyExpr)}, 'UTF8')), 'hex')
      FROM generate_series(0, ${last}) AS i`);
  if ((options.shopZeroKeys ?? 0) > 0) {
    await db.execute(sql`
      INSERT INTO api_keys (shop_id, id, name, prefix, key_hash)
      SELECT 'shp_rb' || lpad('0', 14, '0'), 'key_rb0k' || j, 'bench ' || j,
             left(${sql.raw(zeroKeyExpr)}, 25), encode(sha256(convert_to(${sql.raw(zeroKeyExpr)}, 'UTF8')), 'hex')
        FROM generate_series(1, ${sql.raw(String(options.shopZeroKeys))}) AS j`);
  }
  await db.execute(sql`
    INSERT INTO campaigns (shop_id, id, name, enabled, is_draft)
    SELECT 'shp_rb' || lpad(i::text, 14, '0'), 'cmp_rb' || i, 'Bench campaign', true, false
      FROM generate_series(0, ${last}) AS i`);
  await db.execute(sql`
    INSERT INTO rules (shop_id, id, campaign_id, position, name, enabled, condition_tree, gift_config, options)
    SELECT 'shp_rb' || lpad(i::text, 14, '0'), 'rul_rb' || i || 'r' || r, 'cmp_rb' || i, r,
           t.rule->>'name', true, t.rule->>'conditionTree', (t.rule->'giftConfig'), (t.rule->'options')
      FROM generate_series(0, ${last}) AS i,
           LATERAL (SELECT r::int AS r, value AS rule FROM jsonb_array_elements(${templates}::jsonb) WITH ORDINALITY AS e(value, r)) AS t`);
}
