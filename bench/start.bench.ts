/**
 * `npm run bench:start`: how long `npm start` takes to answer, and how much memory it holds.
 * Spawns the server exactly as `npm start` does (package.json's `start` script in `sh`, whose
 * `exec` makes the shell the server, without npm's own ~0.2 s in front), measures from spawn to
 * the first 200 from `/healthz`,
 * then lets it idle and reads VmRSS (resident now) and VmHWM (peak resident) from
 * /proc/<pid>/status, and stops it with SIGTERM.
 *
 * On PGlite (default) each run gets a temporary DATA_DIR: "fresh" runs start on an empty
 * directory (initdb + migrations), "existing" runs on a directory an earlier run left. With
 * DATABASE_URL set (and REDIS_URL if wanted) the runs start on that PostgreSQL instead.
 * Prints the median and range of each next to the goals of issue 9.
 *
 * BENCH_RUNS (default 5 per case), BENCH_IDLE_SECONDS (default 3, wait after ready before
 * reading RSS), BENCH_NODE_FLAGS (extra Node flags, passed as NODE_OPTIONS, e.g. --cpu-prof to
 * profile a start),
 * BENCH_CASES (`both`, or `existing`: one unmeasured start creates the directory, then only
 * existing-directory starts are measured, for more of them in the time), BENCH_FROM (`both`:
 * every case from the prebuilt server bundle and from source, alternating; `bundle`; `source`).
 * The bundle (src/startup/server-bundle.ts) is built first when it does not match the sources,
 * as the first `npm start` after a change would have built it; source starts set SERVER_BUNDLE=off.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { buildServerBundle, freshServerBundle, serverBundleDir } from '../src/startup/server-bundle.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GOAL_START_MS = 1000;
const START_SCRIPT = z
  .object({ scripts: z.object({ start: z.string() }) })
  .parse(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'))).scripts.start;

const envSchema = z.object({
  BENCH_RUNS: z.coerce.number().int().min(1).default(5),
  BENCH_IDLE_SECONDS: z.coerce.number().min(0).default(3),
  BENCH_NODE_FLAGS: z.string().default(''),
  BENCH_CASES: z.enum(['both', 'existing']).default('both'),
  BENCH_FROM: z.enum(['both', 'bundle', 'source']).default('both'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
});

type Run = { readyMs: number; cpuMs: number; rssMb: number; peakMb: number };

const print = (text = '') => process.stdout.write(`${text}\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
    request.on('timeout', () => request.destroy());
  });
}

/** CPU time (user + system, all threads) `pid` has used so far, in ms: less noisy than wall time on a loaded machine. */
async function cpuOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** VmRSS and VmHWM of `pid` in MB. */
async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', resolve));
}

type From = 'bundle' | 'source';

async function startOnce(env: z.infer<typeof envSchema>, from: From, dataDir: string | undefined, idleSeconds: number): Promise<Run> {
  const port = await freePort();
  if (from === 'bundle' && freshServerBundle(serverBundleDir(process.env)) === undefined) throw new Error('the server bundle went stale');
  const started = process.hrtime.bigint();
  const child = spawn('sh', ['-c', START_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      // As npm does: this Node first on PATH (node_modules/.bin's under `npm run`).
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      ...(env.BENCH_NODE_FLAGS === '' ? {} : { NODE_OPTIONS: env.BENCH_NODE_FLAGS }),
      ...(from === 'source' ? { SERVER_BUNDLE: 'off' } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(dataDir === undefined ? {} : { DATA_DIR: dataDir }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready`);
      if ((await healthz(port)) === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = await cpuOf(child.pid ?? 0);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const memory = await memoryOf(child.pid ?? 0);
    return { readyMs, cpuMs, ...memory };
  } finally {
    child.kill('SIGTERM');
    const code = await exited(child);
    if (code !== 0) process.stderr.write(`server exited with ${code} after SIGTERM\n`);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function summary(label: string, runs: readonly Run[], goal: string): void {
  const line = (values: number[], unit: string, digits: number) =>
    `${median(values).toFixed(digits)} ${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  print(`${label.padEnd(28)} ready ${line(runs.map((r) => r.readyMs), 'ms', 0).padEnd(22)} ${goal}`);
  print(`${''.padEnd(28)} CPU to ready ${line(runs.map((r) => r.cpuMs), 'ms', 0)}`);
  print(`${''.padEnd(28)} idle RSS ${line(runs.map((r) => r.rssMb), 'MB', 0)}, peak ${line(runs.map((r) => r.peakMb), 'MB', 0)}`);
}

async function main(): Promise<void> {
  const env = envSchema.parse(process.env);
  const runs = env.BENCH_RUNS;
  const target = env.DATABASE_URL ? `PostgreSQL${env.REDIS_URL ? ' + Redis' : ''}` : 'PGlite';
  print(`npm start → first 200 from /healthz: ${target}, ${runs} runs per case, RSS read ${env.BENCH_IDLE_SECONDS} s after ready`);
  print(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const froms: From[] = env.BENCH_FROM === 'both' ? ['bundle', 'source'] : [env.BENCH_FROM];
  if (froms.includes('bundle') && freshServerBundle(serverBundleDir(process.env)) === undefined) {
    print('building the server bundle first (a start from source would, after listening)');
    if ((await buildServerBundle(serverBundleDir(process.env))) === undefined) throw new Error('a source file changed during the build');
  }
  const results = new Map<string, Run[]>();
  const record = (key: string, run: Run) => results.set(key, [...(results.get(key) ?? []), run]);

  if (env.DATABASE_URL) {
    for (let i = 0; i < runs; i += 1) {
      for (const from of froms) record(`PostgreSQL, migrated, ${from}`, await startOnce(env, from, undefined, env.BENCH_IDLE_SECONDS));
    }
    for (const from of froms) summary(`PostgreSQL, migrated, ${from}`, results.get(`PostgreSQL, migrated, ${from}`) ?? [], `goal < ${GOAL_START_MS} ms`);
  } else {
    const dirs: string[] = [];
    try {
      if (env.BENCH_CASES === 'existing') {
        const dir = await mkdtemp(join(tmpdir(), 'gcrs-bench-start-'));
        dirs.push(dir);
        await startOnce(env, froms[0] ?? 'source', dir, 0);
        for (let i = 0; i < runs; i += 1) {
          for (const from of froms) record(`existing, ${from}`, await startOnce(env, from, dir, env.BENCH_IDLE_SECONDS));
        }
      }
      // Alternate fresh and existing (and bundle and source) so machine load hits all alike.
      for (let i = 0; i < (env.BENCH_CASES === 'both' ? runs : 0); i += 1) {
        for (const from of froms) {
          const dir = await mkdtemp(join(tmpdir(), 'gcrs-bench-start-'));
          dirs.push(dir);
          record(`fresh, ${from}`, await startOnce(env, from, dir, env.BENCH_IDLE_SECONDS));
          record(`existing, ${from}`, await startOnce(env, from, dir, env.BENCH_IDLE_SECONDS));
        }
      }
    } finally {
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    }
    for (const from of froms) {
      const fresh = results.get(`fresh, ${from}`);
      if (fresh) summary(`PGlite, fresh, ${from}`, fresh, '(issue: 3.2 s before)');
      summary(`PGlite, existing, ${from}`, results.get(`existing, ${from}`) ?? [], `goal < ${GOAL_START_MS} ms (issue: 1.2 s, 674 MB idle, 1.29 GB peak)`);
    }
  }
  print(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

await main();
