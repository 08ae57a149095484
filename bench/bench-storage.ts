/**
 * A benchmark's own storage, so it never touches a developer's data: without `DATABASE_URL` an
 * embedded database in a fresh temporary folder; with it, a database of its own created on that
 * server (`gcrs_bench_<name>_<pid>`). `settings` are the configuration's storage variables;
 * `dispose()` removes the folder or drops the database.
 *
 * @example
 *   const storage = await benchStorage('repairs', env.DATABASE_URL);
 *   const config = loadConfig({ LOG_LEVEL: 'silent', ...storage.settings });
 *   // … run the bench …
 *   await storage.dispose();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type BenchStorage = { settings: { DATA_DIR: string } | { DATABASE_URL: string }; dispose(): Promise<void> };

export async function benchStorage(name: string, serverUrl: string | undefined): Promise<BenchStorage> {
  if (serverUrl === undefined) {
    const dataDir = mkdtempSync(join(tmpdir(), `gcrs-bench-${name}-`));
    return { settings: { DATA_DIR: dataDir }, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const database = `gcrs_bench_${name.replaceAll('-', '_')}_${process.pid}`;
  // One statement on the server's maintenance connection (CREATE/DROP DATABASE).
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onServer(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return { settings: { DATABASE_URL: url.toString() }, dispose: () => onServer(`DROP DATABASE IF EXISTS ${database}`) };
}
