/**
 * Migration 0014_funnel_offers_shown back-fills `daily_rule_stats.offers_shown` for the days
 * counted before it: an `auto_add` rule (or one stored without an action type: the default) was
 * shown by its adds, a `customer_choice` rule by its choices shown, a rule deleted since keeps
 * choices_shown. A data directory of the release before is migrated, as a start would.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../src/db/database.ts';

const root = mkdtempSync(join(tmpdir(), 'gcrs-offers-shown-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Journal = { entries: Array<{ tag: string }> };
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as Journal;

/** The migrations before `tag`: the release the back-fill upgrades. */
function migrationsBefore(tag: string): string {
  const count = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(count).toBeGreaterThan(0);
  const folder = join(root, 'before');
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) cpSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

it('fills offers_shown from the rollup by the rule’s action type', async () => {
  const client = await PGlite.create();
  try {
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBefore('0014_funnel_offers_shown') });
    // Rules of a shop and campaign the test does not build: foreign keys are not what is tested.
    await client.exec(`
      SET session_replication_role = replica;
      INSERT INTO rules (shop_id, id, campaign_id, position, name, enabled, condition_tree, gift_config, options) VALUES
        ('shp_a', 'rul_auto', 'cmp_a', 0, 'auto', true, '{}', '{}', '{"actionType":"auto_add"}'),
        ('shp_a', 'rul_choice', 'cmp_a', 1, 'choice', true, '{}', '{}', '{"actionType":"customer_choice"}'),
        ('shp_a', 'rul_bare', 'cmp_a', 2, 'no action type', true, '{}', '{}', '{}'),
        ('shp_b', 'rul_auto', 'cmp_b', 0, 'another shop''s rule of that id', true, '{}', '{}', '{"actionType":"customer_choice"}');
      INSERT INTO daily_rule_stats (shop_id, day, rule_id, campaign_id, choices_shown, gifts_added, orders_with_gifts) VALUES
        ('shp_a', '2026-11-01', 'rul_auto', 'cmp_a', 1, 5, 2),
        ('shp_a', '2026-11-02', 'rul_auto', 'cmp_a', 0, 3, 0),
        ('shp_a', '2026-11-01', 'rul_choice', 'cmp_a', 7, 4, 1),
        ('shp_a', '2026-11-01', 'rul_bare', 'cmp_a', 0, 6, 0),
        ('shp_a', '2026-11-01', 'rul_gone', 'cmp_a', 9, 2, 0),
        ('shp_b', '2026-11-01', 'rul_auto', 'cmp_b', 8, 1, 0);
      SET session_replication_role = DEFAULT;`);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const { rows } = await client.query<{ shop_id: string; day: string; rule_id: string; offers_shown: number }>(
      `SELECT shop_id, day::text AS day, rule_id, offers_shown FROM daily_rule_stats ORDER BY shop_id, rule_id, day`,
    );
    expect(rows).toEqual([
      { shop_id: 'shp_a', day: '2026-11-01', rule_id: 'rul_auto', offers_shown: 5 },
      { shop_id: 'shp_a', day: '2026-11-02', rule_id: 'rul_auto', offers_shown: 3 },
      { shop_id: 'shp_a', day: '2026-11-01', rule_id: 'rul_bare', offers_shown: 6 },
      { shop_id: 'shp_a', day: '2026-11-01', rule_id: 'rul_choice', offers_shown: 7 },
      { shop_id: 'shp_a', day: '2026-11-01', rule_id: 'rul_gone', offers_shown: 9 },
      { shop_id: 'shp_b', day: '2026-11-01', rule_id: 'rul_auto', offers_shown: 8 },
    ]);
  } finally {
    await client.close();
  }
}, 120_000);
