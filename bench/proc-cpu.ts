/**
 * CPU time of a process as the kernel counts it: utime + stime of /proc/<pid>/stat (every
 * thread: the event loop, GC helpers, PGlite's worker), in seconds.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

// USER_HZ, the unit of /proc/<pid>/stat's times (100 on every usual Linux build).
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * Seconds of CPU `pid` has used so far.
 *
 * @example
 *   const before = processCpuSeconds(process.pid); work(); const used = processCpuSeconds(process.pid) - before;
 */
export function processCpuSeconds(pid: number): number {
  const { user, system } = processCpuTimes(pid);
  return user + system;
}

/**
 * The user and system (kernel: the socket's bytes, the loopback's delivery) parts, in seconds.
 *
 * @example
 *   processCpuTimes(process.pid); // { user: 1.2, system: 0.4 }
 */
export function processCpuTimes(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5) are the 12th and 13th after the name.
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

/** processThreadCpu's name for the thread whose id is the process's (Node's event loop). */
export const MAIN_THREAD = 'main';

/**
 * CPU seconds of each of the process's threads, summed by thread name
 * (/proc/<pid>/task/<tid>/stat; the event loop's thread, whose id is the process's, under
 * MAIN_THREAD; V8's helpers are named "V8 DefaultWorke", libuv's pool "libuv-worker"): where
 * a process's CPU goes besides the event loop, e.g. to garbage collection on V8's helper
 * threads, which a CPU profile of the main thread does not show.
 * A thread that exited between two reads takes its seconds with it.
 *
 * @example
 *   processThreadCpu(process.pid); // Map { 'main' => 3.1, 'V8 DefaultWorke' => 0.4, ... }
 */
export function processThreadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const name = tid === String(pid) ? MAIN_THREAD : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    byName.set(name, (byName.get(name) ?? 0) + seconds);
  }
  return byName;
}
