/**
 * Migrates one template database per run so each test file gets its own database quickly:
 * a PGlite data-directory dump that files load (no initdb, no migrations), and on
 * PostgreSQL a template database that files clone with CREATE DATABASE … TEMPLATE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, renameSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER, openPostgres } from '../../src/db/database.ts';
import { testDatabasePrefix } from './run-databases.ts';

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(join(MIGRATIONS_FOLDER, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

async function pgliteTemplate(dir: string, hash: string): Promise<string> {
  const path = join(dir, `pglite-template-${hash}.tar`);
  if (existsSync(path)) return path;
  const client = await PGlite.create();
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const tmp = `${path}.${process.pid}`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, path);
  return path;
}

async function postgresTemplate(url: string, hash: string): Promise<string> {
  const name = `gcrs_template_${hash}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Several runs may start at once: one creates, the others wait on the lock and reuse it.
    await admin.query('SELECT pg_advisory_lock(7235114022)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      // Built under a scratch name and renamed when complete, so a run that dies midway
      // never leaves a half-migrated template behind for the next one to trust.
      const scratch = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${scratch}"`);
      const templateUrl = new URL(url);
      templateUrl.pathname = `/${scratch}`;
      const handle = await openPostgres(templateUrl.toString(), { poolSize: 2 });
      await handle.close();
      await admin.query(`ALTER DATABASE "${scratch}" RENAME TO "${name}"`);
      await admin.query(`ALTER DATABASE "${name}" WITH is_template true`);
    }
    await admin.query('SELECT pg_advisory_unlock(7235114022)');
  } finally {
    await admin.end();
  }
  return name;
}

/** Drops the databases this run cloned (test files return them to a pool, not drop them). */
async function dropRunDatabases(url: string, runId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      testDatabasePrefix(runId),
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const dir = join(process.cwd(), '.data-test');
  mkdirSync(dir, { recursive: true });
  const hash = migrationsHash();
  project.provide('pgliteTemplatePath', await pgliteTemplate(dir, hash));
  // Names this run's clones, so that its teardown drops them and no other run's.
  const runId = randomBytes(4).toString('hex');
  project.provide('testRunId', runId);
  const url = process.env.TEST_DATABASE_URL;
  project.provide('postgresTemplate', url ? await postgresTemplate(url, hash) : '');
  if (url) return () => dropRunDatabases(url, runId);
  // Without PostgreSQL the row-lock and two-instance tests are skipped: say so at the end of the
  // run, loudly, rather than only as a count of skipped tests (issue 24: a skip nobody sees).
  return async () => warnPostgresOnlySkipped();
}

/** The markers of tests that run only on PostgreSQL (test/support/database.ts). */
const POSTGRES_ONLY_MARKERS = [/POSTGRES_ONLY/, /testDbKind\(\) !== 'postgres'/, /runIf\(testDbKind\(\) === 'postgres'\)/, /skipIf\(!onPostgres\)/];

function warnPostgresOnlySkipped(): void {
  const root = join(process.cwd(), 'test');
  const files = readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return POSTGRES_ONLY_MARKERS.some((marker) => marker.test(text));
    })
    .sort();
  if (files.length === 0) return;
  process.stderr.write(
    `\n⚠ PostgreSQL-only tests were SKIPPED (TEST_DATABASE_URL is not set): row locks, concurrent intake and\n` +
      `  two-instance tests in ${files.length} files:\n${files.map((file) => `    test/${file}`).join('\n')}\n` +
      `  Run them with TEST_DATABASE_URL=postgres://… (and TEST_REDIS_URL=redis://…) npm test, as CI does.\n\n`,
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplate: string;
    testRunId: string;
  }
}
