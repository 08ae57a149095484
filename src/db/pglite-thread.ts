/**
 * The embedded database's own thread (db/pglite-thread-client.ts starts it): PGlite runs here,
 * and the server's thread sends it every query. Why: PostgreSQL's start inside WebAssembly is
 * ~0.4 s of CPU that used to hold the server's only thread, after its modules had loaded;
 * here it runs on another core while they load (docs/performance.md "Start time and memory").
 * Queries run on this thread too, beside the server's HTTP work.
 *
 * Messages: `query` and `exec` (on the database, or on an open transaction), `begin` and `end`
 * of a transaction, `close`. Each gets one answer with the same `id`. PGlite's own methods do
 * all the work, so its semantics (one statement at a time, a transaction holding the database
 * until it ends) are the same as in-process.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { Worker, parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { QueryOptions, Transaction } from '@electric-sql/pglite';

/**
 * The directory, and start parameters added to PGlite's defaults. `initOnly`: create the
 * directory's cluster (initdb), close it and exit (below).
 */
export type ThreadStart = { dataDir: string; extraStartParams: string[]; initOnly?: boolean };

export type ThreadRequest =
  | { id: number; type: 'query'; tx?: number; sql: string; params: unknown[]; rowMode?: 'array' | 'object'; rawTypes: number[] }
  | { id: number; type: 'exec'; tx?: number; sql: string; rawTypes: number[] }
  | { id: number; type: 'begin' }
  | { type: 'end'; tx: number; commit: boolean }
  | { id: number; type: 'close' };

/** A failure as data: an Error's message and own fields (PGlite's DatabaseError: `code`, `detail`, …). */
export type ThreadError = { name: string; message: string; fields: Record<string, unknown> };

export type ThreadResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };

function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // Only what can cross threads: PGlite's fields are strings and numbers.
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** Type oids whose text the caller wants as it is (drizzle's date and interval types). */
function rawParsers(types: number[]): QueryOptions['parsers'] {
  return Object.fromEntries(types.map((type) => [type, (text: string) => text]));
}

const port = parentPort;
if (port === null) throw new Error('pglite-thread.ts runs as a worker thread (db/pglite-thread-client.ts)');
const start = workerData as ThreadStart;
const startParams = [...PGlite.defaultStartParams, ...start.extraStartParams];

if (start.initOnly === true) {
  const init = await PGlite.create(start.dataDir, { startParams });
  await init.close();
  process.exit(0);
}
// A directory without a cluster is created in a thread of its own first. initdb grows PGlite's
// WebAssembly memory to ~0.7 GB and a WebAssembly memory never shrinks: created here, the
// server would keep that for its whole life, where a start on an existing directory needs
// ~0.3 GB. The thread's exit gives it all back (docs/performance.md "Start time and memory").
if (!existsSync(join(start.dataDir, 'PG_VERSION'))) {
  const init = new Worker(new URL(import.meta.url), { workerData: { ...start, initOnly: true } satisfies ThreadStart });
  const [code] = (await once(init, 'exit')) as [number];
  if (code !== 0) throw new Error(`creating the database in ${start.dataDir} failed (its thread exited with code ${code})`);
}
const pg = await PGlite.create(start.dataDir, { startParams });

const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
const answer = (id: number, run: () => Promise<unknown>) =>
  run().then(
    (value) => port.postMessage({ id, ok: true, value } satisfies ThreadResponse),
    (error: unknown) => port.postMessage({ id, ok: false, error: toThreadError(error) } satisfies ThreadResponse),
  );

/** The open transaction `tx`, or the database itself. */
function target(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (open === undefined) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

class RolledBack extends Error {}

port.on('message', (request: ThreadRequest) => {
  switch (request.type) {
    case 'query':
      void answer(request.id, () =>
        target(request.tx).query(request.sql, request.params, {
          ...(request.rowMode ? { rowMode: request.rowMode } : {}),
          parsers: rawParsers(request.rawTypes),
        }),
      );
      break;
    case 'exec':
      void answer(request.id, () => target(request.tx).exec(request.sql, { parsers: rawParsers(request.rawTypes) }));
      break;
    case 'begin': {
      // Answered twice: once open (id: the request's), once ended (id: minus the request's), with
      // COMMIT's outcome or the error that rolled it back.
      const tx = request.id;
      void answer(-tx, () =>
        pg
          .transaction(
            (handle) =>
              new Promise<void>((resolve, reject) => {
                transactions.set(tx, { tx: handle, end: (commit) => (commit ? resolve() : reject(new RolledBack())) });
                port.postMessage({ id: tx, ok: true, value: tx } satisfies ThreadResponse);
              }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof RolledBack)) throw error;
          })
          .finally(() => transactions.delete(tx)),
      );
      break;
    }
    case 'end':
      // No answer of its own: the transaction's second answer (id -tx) says how it ended.
      transactions.get(request.tx)?.end(request.commit);
      break;
    case 'close':
      void answer(request.id, () => pg.close()).then(() => port.close());
      break;
  }
});
port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies ThreadResponse);
