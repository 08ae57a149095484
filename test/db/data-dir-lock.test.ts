/** CONTRACT "Running it": a second process on the same embedded data directory exits with a clear message. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/db/data-dir-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'gcrs-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>): { done: Promise<{ code: number | null; stderr: string }>; kill(): void; ready: Promise<void> } {
  const child = spawn(process.execPath, ['src/main.ts'], { env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env } });
  let stderr = '';
  let stdout = '';
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('Server listening')) resolveReady();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return { done, ready, kill: () => child.kill('SIGTERM') };
}

describe('the data directory lock', () => {
  it('lets only one process open a data directory; a second `npm start` exits 1 naming the directory', async () => {
    // The first holder is a bare process holding the lock (the server takes it the same way,
    // before opening the database), so the test does not pay for a full database start.
    const holder = spawn(
      process.execPath,
      ['--input-type=module', '-e', `import { acquireDataDirLock } from ${JSON.stringify(new URL('../../src/db/data-dir-lock.ts', import.meta.url).href)}; await acquireDataDirLock(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.on('data', () => resolve()));
    try {
      const second = await start({ DATA_DIR: dir, PORT: '0' }).done;
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`in use by another process \\(pid ${holder.pid}\\)`));
      expect(second.stderr).toContain(dir);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('takes over a lock left by a process that is gone', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'gcrs-stale-'));
    writeFileSync(join(stale, 'gcrs.lock'), '999999999');
    const release = await acquireDataDirLock(stale);
    await expect(acquireDataDirLock(stale)).rejects.toThrow(DataDirLockedError);
    release();
    const again = await acquireDataDirLock(stale);
    again();
    rmSync(stale, { recursive: true, force: true });
  });

  it('stops the start on a bad setting with a message naming the variable', async () => {
    const res = await start({ DATA_DIR: dir, PORT: 'eighty' }).done;
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT');
  }, 30_000);
});
