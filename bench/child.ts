/**
 * The benches' child processes: a script forked with the project's import conditions, talked
 * to over IPC, and its CPU time as the kernel counts it (/proc/<pid>/stat, Linux).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { processCpuSeconds, processCpuTimes, processThreadCpu } from './proc-cpu.ts';

/** A forked bench process and one-message-at-a-time requests to it. */
export type BenchChild = {
  process: ChildProcess;
  /** Sends `message` and resolves with the next message of type `expect`. */
  ask<T>(message: unknown, expect: string): Promise<T>;
  /** The process's user + system CPU seconds so far. */
  cpuSeconds(): number;
  /** The same, split into user and system (kernel) seconds. */
  cpuTimes(): { user: number; system: number };
  /** CPU seconds so far by thread name (proc-cpu.ts processThreadCpu). */
  threadCpu(): Map<string, number>;
  stop(): Promise<void>;
};

/**
 * Forks `script` (a path) with `env`, and waits for its first message of type `ready`.
 *
 * @example
 *   const { child, ready } = await startChild(new URL('./rules-bare.ts', import.meta.url).pathname, env, setup);
 */
export async function startChild<R>(script: string, env: NodeJS.ProcessEnv, first?: unknown): Promise<{ child: BenchChild; ready: R }> {
  const proc = fork(script, [], { env, execArgv: ['--conditions=@gcrs/source'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<string, (message: unknown) => void>();
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.on('message', (message: { type: string }) => {
    const resolve = waiting.get(message.type);
    waiting.delete(message.type);
    resolve?.(message);
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      waiting.set(type, (message) => resolve(message as T));
      void exited.then(() => reject(new Error(`${script} exited while the bench waited for '${type}'`)));
    });
  const child: BenchChild = {
    process: proc,
    ask: <T>(message: unknown, expect: string) => {
      const answer = next<T>(expect);
      proc.send(message as object);
      return answer;
    },
    cpuSeconds: () => processCpuSeconds(proc.pid ?? 0),
    cpuTimes: () => processCpuTimes(proc.pid ?? 0),
    threadCpu: () => processThreadCpu(proc.pid ?? 0),
    async stop() {
      if (proc.exitCode !== null) return;
      proc.send({ type: 'stop' });
      await exited;
    },
  };
  const ready = next<R>('ready');
  if (first !== undefined) proc.send(first as object);
  return { child, ready: await ready };
}
