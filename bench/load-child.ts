/**
 * The load generator of the HTTP benches in a process of its own: autocannon here costs the
 * measured server no CPU, and the server's /proc CPU counts the server alone. The parent
 * forks this file once and sends one run at a time over IPC; each answer is the run's counts.
 *
 * @example
 *   const load = await startLoadChild(); const counts = await load.run({ url, ... }); load.stop();
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type LoadRun = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  seconds: number;
  connections: number;
};

/** What one run got: completed requests by class, and the mean requests per second. */
export type LoadCounts = { requests: number; ok: number; non2xx: number; errors: number; perSecond: number };

export type LoadChild = { run(run: LoadRun): Promise<LoadCounts>; stop(): void };

/** Forks this file as the load process; resolves once it is listening for runs. */
export async function startLoadChild(): Promise<LoadChild> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
  });
  return {
    run: (run) =>
      new Promise<LoadCounts>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the load process exited (${code ?? 'signal'})`));
        child.once('exit', onExit);
        child.once('message', (counts) => {
          child.off('exit', onExit);
          resolve(counts as LoadCounts);
        });
        child.send(run);
      }),
    stop: () => child.kill(),
  };
}

async function serve(run: LoadRun): Promise<LoadCounts> {
  // Loaded here, in the load process only: the measured process never runs a line of it.
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url: run.url,
    method: run.method,
    headers: run.headers,
    ...(run.body === undefined ? {} : { body: run.body }),
    duration: run.seconds,
    connections: run.connections,
    pipelining: 1,
  });
  return { requests: result.requests.total, ok: result['2xx'], non2xx: result.non2xx, errors: result.errors, perSecond: result.requests.average };
}

// Run as the child: answer each run sent by the parent, until it disconnects.
if (process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.on('message', (run) => {
    void serve(run as LoadRun).then((counts) => process.send?.(counts));
  });
  process.on('disconnect', () => process.exit(0));
  process.send('ready');
}
