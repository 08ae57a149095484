/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it.
 * A lock file naming the owner makes the second process stop with a clear message; a lock
 * whose owner is gone is taken over.
 *
 * "Gone" includes a reused pid. After a crash in a container the restarted service is pid 1
 * again, the pid the lock names: a pid check alone would refuse to start until someone deletes
 * the file. So the lock records, besides the pid, the kernel's boot id and the owner's start
 * time (field 22 of /proc/<pid>/stat); a live process with that pid but another start time is a
 * different process, and the lock is stale. Invariants:
 * - a lock naming our own pid that this process does not hold was written by an earlier
 *   incarnation (we have not written it yet), so it is taken over;
 * - when the owner cannot be told apart (no /proc, old lock format, a node process), the lock
 *   is respected: refusing to start is recoverable, two writers are not.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** Lock files this process holds, so a second open in the same process still fails. */
const heldHere = new Set<string>();

type LockOwner = { pid: number; bootId: string | undefined; startTime: string | undefined };

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
}

/** The start time of `pid` in clock ticks since boot, or undefined where /proc is absent. */
export function processStartTime(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) may contain spaces and parentheses: count after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

function looksLikeNode(pid: number): boolean {
  const cmdline = readText(`/proc/${pid}/cmdline`);
  // Unknown counts as "could be us": respect the lock.
  if (cmdline === undefined) return true;
  const program = cmdline.split('\0')[0] ?? '';
  return /node/i.test(program);
}

function ownLockText(): string {
  return JSON.stringify({ pid: process.pid, bootId: bootId(), startTime: processStartTime(process.pid) });
}

/** Reads a lock file: the JSON of ownLockText, or the bare pid of earlier versions. */
function parseLock(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return { pid: value, bootId: undefined, startTime: undefined };
    if (value !== null && typeof value === 'object' && 'pid' in value && Number.isSafeInteger(value.pid)) {
      const field = (name: string): string | undefined => {
        const found: unknown = (value as Record<string, unknown>)[name];
        return typeof found === 'string' ? found : undefined;
      };
      return { pid: Number(value.pid), bootId: field('bootId'), startTime: field('startTime') };
    }
  } catch {
    // Not JSON: a torn or foreign file, which no live owner of ours would leave.
  }
  return undefined;
}

/** Whether the process the lock names is still the one that wrote it, as far as can be told. */
function ownerIsAlive(owner: LockOwner): boolean {
  // An earlier incarnation of this very process (same pid after a restart, e.g. pid 1).
  if (owner.pid === process.pid) return false;
  if (!isRunning(owner.pid)) return false;
  const currentBoot = bootId();
  // A lock from before a reboot: every process of that boot is gone.
  if (owner.bootId !== undefined && currentBoot !== undefined && owner.bootId !== currentBoot) return false;
  if (owner.startTime !== undefined) {
    const startTime = processStartTime(owner.pid);
    if (startTime !== undefined) return startTime === owner.startTime;
  }
  // Old lock format: a running process that is not node cannot be this service.
  return looksLikeNode(owner.pid);
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
  if (heldHere.has(lockPath)) {
    throw new DataDirLockedError(`The data directory ${dir} is already open in this process.`);
  }
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      try {
        writeSync(fd, ownLockText());
      } finally {
        closeSync(fd);
      }
      heldHere.add(lockPath);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = parseLock(readText(lockPath) ?? '');
      if (owner && ownerIsAlive(owner)) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another process (pid ${owner.pid}). ` +
            'Stop that process, point DATA_DIR elsewhere, or set DATABASE_URL to share a PostgreSQL server.',
        );
      }
      // Stale lock (owner gone, pid reused, or our own earlier incarnation): remove it and try once more.
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}
