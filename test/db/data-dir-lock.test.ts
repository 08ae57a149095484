/** CONTRACT "Running it": a second process on the same embedded data directory exits with a clear message. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, processStartTime } from '../../src/db/data-dir-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'gcrs-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>): { done: Promise<{ code: number | null; stderr: string }>; kill(): void; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], { env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env } });
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

  it('takes over a lock naming its own pid: only an earlier incarnation can have written it', async () => {
    const crashed = mkdtempSync(join(tmpdir(), 'gcrs-own-pid-'));
    try {
      writeFileSync(join(crashed, 'gcrs.lock'), JSON.stringify({ pid: process.pid, startTime: '1' }));
      const release = await acquireDataDirLock(crashed);
      const written = JSON.parse(readFileSync(join(crashed, 'gcrs.lock'), 'utf8')) as { pid: number };
      expect(written.pid).toBe(process.pid);
      // Held by this process now: a second open here is still refused.
      await expect(acquireDataDirLock(crashed)).rejects.toThrow(/already open in this process/);
      release();
      expect(existsSync(join(crashed, 'gcrs.lock'))).toBe(false);
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync('/proc/1/cmdline'))('takes over a lock naming pid 1 when pid 1 is not this service (old and new lock formats)', async () => {
    const reused = mkdtempSync(join(tmpdir(), 'gcrs-pid1-'));
    try {
      // An old-format lock (a bare pid) naming a running process that is not node is stale;
      // where pid 1 is itself a node process (some containers) that format is respected instead.
      const pid1IsNode = /node/i.test(readFileSync('/proc/1/cmdline', 'utf8').split('\0')[0] ?? '');
      writeFileSync(join(reused, 'gcrs.lock'), '1');
      if (pid1IsNode) await expect(acquireDataDirLock(reused)).rejects.toThrow(DataDirLockedError);
      else (await acquireDataDirLock(reused))();
      writeFileSync(join(reused, 'gcrs.lock'), JSON.stringify({ pid: 1, startTime: 'not-its-start-time' }));
      (await acquireDataDirLock(reused))();
    } finally {
      rmSync(reused, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync('/proc/self/stat'))('tells a live holder from a reused pid by the start time it recorded', async () => {
    const live = mkdtempSync(join(tmpdir(), 'gcrs-live-'));
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      const pid = other.pid ?? 0;
      const startTime = processStartTime(pid);
      // The holder's own start time: the lock is live.
      writeFileSync(join(live, 'gcrs.lock'), JSON.stringify({ pid, startTime }));
      await expect(acquireDataDirLock(live)).rejects.toThrow(`in use by another process (pid ${pid})`);
      // Same pid, another start time: a process that merely inherited the number.
      writeFileSync(join(live, 'gcrs.lock'), JSON.stringify({ pid, startTime: `${startTime ?? ''}0` }));
      (await acquireDataDirLock(live))();
      // Old format naming a live node process: cannot be told apart, so respected.
      writeFileSync(join(live, 'gcrs.lock'), String(pid));
      await expect(acquireDataDirLock(live)).rejects.toThrow(DataDirLockedError);
    } finally {
      other.kill('SIGKILL');
      rmSync(live, { recursive: true, force: true });
    }
  });

  // The real fault: in a container the service is pid 1, crashes, and comes back as pid 1.
  // A pid namespace (unshare, root only) reproduces it: two processes, both pid 1.
  const canUnshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  it.skipIf(!canUnshare)('restarts as pid 1 after a crash as pid 1 and takes the lock over', () => {
    const crashed = mkdtempSync(join(tmpdir(), 'gcrs-crash-'));
    const lockModule = JSON.stringify(new URL('../../src/db/data-dir-lock.ts', import.meta.url).href);
    const run = (then: string) =>
      spawnSync(
        'unshare',
        ['--pid', '--fork', '--mount-proc', process.execPath, '--input-type=module', '-e',
          `import { acquireDataDirLock } from ${lockModule}; await acquireDataDirLock(${JSON.stringify(crashed)}); console.log('pid', process.pid); ${then}`],
        { encoding: 'utf8' },
      );
    try {
      const first = run("process.kill(process.pid, 'SIGKILL');");
      expect(first.stdout).toContain('pid 1');
      // The crash left its lock behind, naming pid 1.
      expect(JSON.parse(readFileSync(join(crashed, 'gcrs.lock'), 'utf8'))).toMatchObject({ pid: 1 });
      const second = run('process.exit(0);');
      expect(second.stderr).toBe('');
      expect(second.stdout).toContain('pid 1');
      expect(second.status).toBe(0);
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }
  });

  it('stops the start on a bad setting with a message naming the variable', async () => {
    const res = await start({ DATA_DIR: dir, PORT: 'eighty' }).done;
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT');
  }, 30_000);

  it('stops the start on an unreachable DATABASE_URL with one sentence naming it, no stack trace', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const res = await start({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', PORT: '0' }).done;
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Could not open the database at DATABASE_URL: connect ECONNREFUSED 127.0.0.1:1.\n');
  }, 30_000);
});
