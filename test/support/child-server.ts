/**
 * The real `node src/main.ts` as a child process on a loopback port of its own, on the test
 * project's store (a PGlite directory unpacked from the run's template, or a PostgreSQL database
 * cloned from the template, with the run's Redis). For tests that need what `app.inject()` cannot
 * show: a process's memory, its sockets, its signals.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { createTestDatabase, testDbKind, testRedisUrl } from './database.ts';
import type { TestDatabase } from './database.ts';
import { sparePort } from './ports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type ChildServer = {
  base: string;
  child: ChildProcessWithoutNullStreams;
  /** The exit code, once the process has exited. */
  exited: Promise<number | null>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** The child's resident set size in bytes, now and at its peak (Linux /proc VmRSS, VmHWM). */
  memory(): { rss: number; peak: number };
  /** Starts a new peak from the current resident size (writes 5 to /proc/<pid>/clear_refs). */
  resetPeak(): void;
  /** The database the server uses, for checks after the fact (PGlite: only once it has exited). */
  database(): Promise<TestDatabase>;
  /** Kills the process if it still runs and removes what it was given. */
  close(): Promise<void>;
};

/**
 * Starts the server from source with `env` added to a minimal environment and waits until
 * `/healthz` answers 200.
 *
 * @example
 *   const server = await startChildServer({ PLATFORM_APP_SECRET: 'secret' });
 *   await fetch(`${server.base}/healthz`);
 *   await server.close();
 */
export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const cleanups: Array<() => Promise<void> | void> = [];
  let storage: Record<string, string>;
  let database: () => Promise<TestDatabase>;
  if (testDbKind() === 'postgres') {
    const db = await createTestDatabase();
    cleanups.push(() => db.close());
    const redisUrl = testRedisUrl();
    storage = { DATABASE_URL: db.url ?? '', ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
    database = async () => ({ ...db, close: async () => {} });
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'gcrs-child-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The run's migrated template, unpacked: a fresh initdb would take most of the test's time.
    const unpacked = spawnSync('tar', ['xf', inject('pgliteTemplatePath'), '-C', dataDir]);
    if (unpacked.status !== 0) throw new Error(`tar failed: ${unpacked.stderr.toString()}`);
    storage = { DATA_DIR: dataDir };
    database = async () => {
      const { openPglite } = await import('../../src/db/database.ts');
      return openPglite({ dataDir });
    };
  }
  const port = await sparePort();
  const child = spawn(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'warn', SERVER_BUNDLE: 'off', ...storage, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout.resume();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const server: ChildServer = {
    base: `http://127.0.0.1:${port}`,
    child,
    exited,
    stderr: () => stderr,
    memory: () => memoryOf(child.pid),
    resetPeak: () => writeFileSync(`/proc/${child.pid ?? 0}/clear_refs`, '5'),
    database,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
  for (let i = 0; ; i += 1) {
    const ok = await fetch(`${server.base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 600 || child.exitCode !== null) {
      await server.close();
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid ?? 0}/status`, 'utf8');
  const bytes = (field: string) => {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
    if (kb === undefined) throw new Error(`no ${field} for process ${pid ?? '?'}`);
    return Number(kb) * 1024;
  };
  return { rss: bytes('VmRSS'), peak: bytes('VmHWM') };
}
