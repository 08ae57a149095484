/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it.
 * A lock file holding the owner's pid makes the second process stop with a clear message; a
 * lock left by a process that no longer runs is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of `dataDir` for this process and returns its release function.
 *
 * @example
 *   const release = await acquireDataDirLock('./data'); // throws DataDirLockedError if taken
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => void> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const lockPath = join(dir, 'gcrs.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another process (pid ${owner}). ` +
            'Stop that process, point DATA_DIR elsewhere, or set DATABASE_URL to share a PostgreSQL server.',
        );
      }
      if (owner === process.pid) {
        throw new DataDirLockedError(`The data directory ${dir} is already open in this process.`);
      }
      // Stale lock from a process that is gone: remove it and try once more.
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}
