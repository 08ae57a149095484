/**
 * The sides bench:evaluate measures, each round by round: the service (an app listening on a
 * loopback port, driven from the load process), the bare Fastify floor, and the engine
 * in-process; with the CPU each used and the work each did.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { evaluationContextSchema, planCart } from '@gcrs/engine';
import type { CompiledRules, EvaluationContext } from '@gcrs/engine';
import type { LoadChild } from './load-child.ts';
import { processCpuTimes } from './proc-cpu.ts';

export type Case = { name: string; path: string; body: string; context: EvaluationContext; trace: boolean };
/** A server a service round drives: its name in the output and its base URL. */
export type Server = { level: string; base: string; close(): Promise<void> };
/** CPU seconds (all, and the kernel's part) and units of work (requests or carts) of one side, summed over rounds. */
export type Tally = { cpu: number; system: number; work: number; perSecond: number };

/** The CPU this process uses while `work` runs. */
export async function measured<T>(work: () => Promise<T> | T): Promise<{ result: T; cpu: number; system: number }> {
  const before = processCpuTimes(process.pid);
  const result = await work();
  const after = processCpuTimes(process.pid);
  return { result, cpu: after.user + after.system - before.user - before.system, system: after.system - before.system };
}

/**
 * The floor of any service: a bare Fastify on its defaults (no logger, no auth, no limiter) that
 * parses the same body with its JSON parser and writes the service's answer bytes back.
 * What the service costs above it is ours; what the floor costs, only fewer bytes would save.
 */
export async function startBare(): Promise<{ server: Server; answer: { text: string } }> {
  const answer = { text: '' };
  const app = Fastify({ logger: false });
  app.post('/api/v1/evaluate', (request, reply) => {
    if (request.body === undefined) throw new Error('no body');
    return reply.type('application/json; charset=utf-8').send(answer.text);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const server: Server = { level: 'bare', base: `http://127.0.0.1:${address.port}/api/v1`, close: () => app.close() };
  return { server, answer };
}

/**
 * The floor below any framework: a bare `node:http` server that reads the body, JSON.parse's
 * it, and writes JSON.stringify of the service's answer (parsed once, as `answer.text` is set).
 * Everything a JSON service on these bytes must do at the least, and nothing else.
 */
export async function startRaw(): Promise<{ server: Server; answer: { text: string } }> {
  let value: unknown;
  let text = '';
  const answer = {
    get text() {
      return text;
    },
    set text(next: string) {
      text = next;
      value = JSON.parse(next);
    },
  };
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (JSON.parse(Buffer.concat(chunks).toString('utf8')) === undefined) throw new Error('no body');
      const body = JSON.stringify(value);
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const close = () => new Promise<void>((resolve) => {
    http.closeAllConnections();
    http.close(() => resolve());
  });
  return { server: { level: 'raw', base: `http://127.0.0.1:${address.port}/api/v1`, close }, answer };
}

/** Runs `work` under V8's CPU profiler and writes the profile to `file` (open it in Chrome's DevTools). */
export async function profiled<T>(file: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/** One service round: this process's CPU over the run, and the requests it answered. */
export async function serviceRound(loader: LoadChild, server: Server, c: Case, auth: string, seconds: number, connections: number): Promise<Tally> {
  const { result: counts, cpu, system } = await measured(() =>
    loader.run({
      url: `${server.base}${c.path}`,
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: c.body,
      seconds,
      connections,
    }),
  );
  if (counts.errors > 0 || counts.non2xx > 0) throw new Error(`${c.name} at ${server.level}: errors ${counts.errors}, non-2xx ${counts.non2xx}`);
  return { cpu, system, work: counts.ok, perSecond: counts.perSecond };
}

/** The CPU of this process (all threads) while `work` runs, at microsecond resolution (getrusage). */
export function measuredFine(work: () => number): { result: number; cpu: number; system: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, cpu: (used.user + used.system) / 1e6, system: used.system / 1e6 };
}

/**
 * One engine round: planCart in-process for `seconds`, its CPU and the carts evaluated.
 * `reused`: the same parsed context every time, as a storefront evaluates its own cart (the
 * engine then keeps what it derived from the collection map, keyed by the map object).
 * Otherwise a fresh parse of the body for every cart, as each request brings the server one:
 * batches that parse and plan alternate with batches that only parse, and the engine's cost
 * per cart is the difference (each side with the garbage it leaves, whenever it is collected).
 */
export function engineRound(c: Case, rules: CompiledRules, seconds: number, reused: boolean): Tally {
  const started = performance.now();
  const end = started + seconds * 1000;
  const plan = (context: EvaluationContext) => planCart(rules, context, { now: new Date(), trace: c.trace });
  const parse = () => evaluationContextSchema.parse(JSON.parse(c.body));
  const BATCH = 20;
  if (reused) {
    const { result: runs, cpu, system } = measuredFine(() => {
      let count = 0;
      while (performance.now() < end) {
        for (let i = 0; i < BATCH; i++) plan(c.context);
        count += BATCH;
      }
      return count;
    });
    return { cpu, system, work: runs, perSecond: runs / ((performance.now() - started) / 1000) };
  }
  const both = { cpu: 0, system: 0, work: 0 };
  const parsing = { cpu: 0, system: 0, work: 0 };
  while (performance.now() < end) {
    for (const [sum, step] of [[both, () => plan(parse())], [parsing, parse]] as const) {
      const chunk = measuredFine(() => {
        for (let i = 0; i < BATCH; i++) step();
        return BATCH;
      });
      sum.cpu += chunk.cpu;
      sum.system += chunk.system;
      sum.work += chunk.result;
    }
  }
  // Per cart: (parse + plan) − parse, expressed over `both.work` carts.
  const perCart = both.cpu / both.work - parsing.cpu / parsing.work;
  const systemPerCart = Math.max(0, both.system / both.work - parsing.system / parsing.work);
  return { cpu: perCart * both.work, system: systemPerCart * both.work, work: both.work, perSecond: Number.NaN };
}

/** CPU per unit of work, in microseconds. */
export const micros = (t: Tally) => (t.cpu / t.work) * 1e6;
