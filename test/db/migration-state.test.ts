/**
 * The start's migration fast path (src/db/migration-state.ts): an up-to-date directory skips
 * the migrator, and any directory that is not (fresh, an older journal, an edited migration)
 * still gets the migrator, so an old data directory is brought up to date at start.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openPglite } from '../../src/db/database.ts';
import type { Database } from '../../src/db/database.ts';
import { migrationsUpToDate } from '../../src/db/migration-state.ts';

const root = mkdtempSync(join(tmpdir(), 'gcrs-migrations-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Journal = { entries: Array<{ tag: string }> };
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as Journal;

/** A migrations folder holding only the first `count` migrations of the journal: an older release. */
function olderMigrations(count: number): string {
  const folder = join(root, `migrations-${count}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) cpSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

async function withClient<T>(dataDir: string, use: (client: PGlite, db: Database) => Promise<T>): Promise<T> {
  const client = await PGlite.create(dataDir);
  try {
    return await use(client, drizzle(client) as unknown as Database);
  } finally {
    await client.close();
  }
}

const appliedCount = (client: PGlite) =>
  client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations').then((r) => r.rows[0]?.n);
// Made by 0001_outbox_finished_idx, so absent from a directory migrated with 0000 only.
const laterIndexExists = (client: PGlite) =>
  client
    .query<{ present: boolean }>("SELECT to_regclass('public.outbox_finished_idx') IS NOT NULL AS present")
    .then((r) => r.rows[0]?.present);

// Each test opens PGlite several times (initdb included): seconds each on a loaded machine.
describe('migrations at start', { timeout: 90_000 }, () => {
  it('the journal has at least two migrations, so an older journal exists to test with', () => {
    expect(journal.entries.length).toBeGreaterThanOrEqual(2);
  });

  it('brings a directory migrated by an older release up to date, then skips the migrator on the next start', async () => {
    const dataDir = join(root, 'old');
    const older = olderMigrations(1);
    await withClient(dataDir, async (client, db) => {
      await migrate(drizzle(client), { migrationsFolder: older });
      expect(await laterIndexExists(client)).toBe(false);
      expect(await migrationsUpToDate(db, MIGRATIONS_FOLDER)).toBe(false);
      // The older release's own journal is complete for that release.
      expect(await migrationsUpToDate(db, older)).toBe(true);
    });

    const handle = await openPglite({ dataDir });
    await handle.close();

    await withClient(dataDir, async (client, db) => {
      expect(await laterIndexExists(client)).toBe(true);
      expect(await appliedCount(client)).toBe(journal.entries.length);
      expect(await migrationsUpToDate(db, MIGRATIONS_FOLDER)).toBe(true);
    });

    // Up to date: a second start applies nothing and records nothing.
    const again = await openPglite({ dataDir });
    await again.close();
    await withClient(dataDir, async (client) => expect(await appliedCount(client)).toBe(journal.entries.length));
  });

  it('is not up to date on a fresh database (no migrations table) nor when the newest applied migration was edited', async () => {
    const dataDir = join(root, 'fresh');
    await withClient(dataDir, async (client, db) => {
      expect(await migrationsUpToDate(db, MIGRATIONS_FOLDER)).toBe(false);
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      expect(await migrationsUpToDate(db, MIGRATIONS_FOLDER)).toBe(true);
      await client.query(
        'UPDATE drizzle.__drizzle_migrations SET hash = $1 WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)',
        ['edited'],
      );
      expect(await migrationsUpToDate(db, MIGRATIONS_FOLDER)).toBe(false);
    });
    // The migrator then runs as before and, judging by timestamps, re-applies nothing.
    const handle = await openPglite({ dataDir });
    await handle.close();
    await withClient(dataDir, async (client) => expect(await appliedCount(client)).toBe(journal.entries.length));
  });

  it('starts PGlite with the configured shared_buffers, 32MB unless told', async () => {
    const dataDir = join(root, 'buffers');
    const read = async (sharedBuffers?: string) => {
      const handle = await openPglite({ dataDir }, { sharedBuffers });
      try {
        const result = (await handle.db.execute(sql`SELECT current_setting('shared_buffers') AS value`)) as unknown as {
          rows: Array<{ value: string }>;
        };
        return result.rows[0]?.value;
      } finally {
        await handle.close();
      }
    };
    expect(await read()).toBe('32MB');
    expect(await read('16MB')).toBe('16MB');
  });
});
