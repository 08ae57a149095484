/**
 * The operator CLI as a child process, for what only a real process shows: --help answers with
 * a locked DATA_DIR where a command exits 1 with the reason, and a command on a real database
 * prints --json before exiting 0. The processes start in beforeAll and run alongside each other.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const run = promisify(execFile);

let t: TestApp;
let processRuns: ReturnType<typeof runProcesses>;
const settled = () => Promise.allSettled(Object.values(processRuns));
const processDir = mkdtempSync(join(tmpdir(), 'gcrs-cli-'));
beforeAll(async () => {
  t = await createTestApp();
  processRuns = runProcesses(processDir);
  // Awaited by the tests; this only keeps an early failure from going unhandled.
  void settled();
});
afterAll(async () => {
  await settled();
  rmSync(processDir, { recursive: true, force: true });
  await t.close();
});

describe('CLI process', () => {
  it('answers --help with a locked DATA_DIR, where a command exits 1 with the reason', async () => {
    const [help, locked] = await Promise.all([processRuns.help, processRuns.locked]);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: npm run cli/);
    expect(locked).toMatchObject({ code: 1, stdout: '' });
    expect(locked.stderr).toMatch(/^The data directory .*locked is in use by another process \(pid \d+\)\./);
    expect(locked.stderr).toMatch(/While the server runs, use its admin API instead: http:\/\/127\.0\.0\.1:\d+\/admin\/v1 /);
  });

  it('runs a command on a real database and prints --json before exiting 0', async () => {
    const created = await processRuns.created;
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(created.stdout).shop.domain).toBe('proc.example.com');
  }, 60_000);
});

type ProcessResult = { code: number; stdout: string; stderr: string };

/**
 * The child processes, all started at once in beforeAll so they run alongside each other (a
 * process spends most of its time loading modules and, on PGlite, creating the database).
 */
function runProcesses(dir: string): Record<'help' | 'locked' | 'created', Promise<ProcessResult>> {
  const node = (args: string[], env: Record<string, string>): Promise<ProcessResult> =>
    run(process.execPath, ['--conditions=@gcrs/source', 'src/cli.ts', ...args], { env: { ...process.env, DATABASE_URL: '', ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: ProcessResult) => error,
    );
  // Locked by this (running) test process: opening it must fail, so --help must not open it.
  const lockedDir = join(dir, 'locked');
  mkdirSync(lockedDir);
  writeFileSync(join(lockedDir, 'gcrs.lock'), String(process.pid));
  const database = async (): Promise<Record<string, string>> => {
    // PostgreSQL runs: the test's own database. PGlite runs: a data directory restored from the
    // run's migrated template (half the time of an initdb in the child), which the child opens.
    if (testDbKind() === 'postgres') return { DATABASE_URL: databaseUrl() };
    const dataDir = join(dir, 'data');
    const template = new Blob([readFileSync(inject('pgliteTemplatePath'))]);
    await (await PGlite.create({ dataDir, loadDataDir: template })).close();
    return { DATA_DIR: dataDir };
  };
  return {
    help: node(['--help'], { DATA_DIR: lockedDir }),
    locked: node(['shop:list'], { DATA_DIR: lockedDir }),
    created: database().then((env) => node(['shop:create', '--domain', 'proc.example.com', '--plan', 'scale', '--json'], env)),
  };
}

function databaseUrl(): string {
  const url = (t.ctx.database as { url?: string }).url;
  if (url === undefined) throw new Error('the test database has no url');
  return url;
}
