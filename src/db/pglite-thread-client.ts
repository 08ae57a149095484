/**
 * The server's side of the embedded database's thread (db/pglite-thread.ts): an object with the
 * part of PGlite's interface drizzle's PGlite driver and this service use (`query`, `exec`,
 * `transaction`, `close`), each call sent to the thread and answered from it.
 *
 * What crosses threads is data only: SQL, parameters and rows (structured clone keeps strings,
 * numbers, bigints, booleans, null, byte arrays, arrays and objects), and errors as their
 * message and own fields, rebuilt here as an Error with the same `name`, `code`, `detail`, …,
 * which is all the storage-error mapping reads (http/storage-errors.ts). Parsers are functions
 * and cannot cross: the ones drizzle passes return the text unchanged for its date and interval
 * types, so the thread is told those types' oids and keeps their text; any other parser is
 * refused rather than silently not applied.
 */
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { ThreadError, ThreadRequest, ThreadResponse, ThreadStart } from './pglite-thread.ts';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

function rebuild(error: ThreadError): Error {
  return Object.assign(new Error(error.message), { ...error.fields, name: error.name });
}

/** The oids whose parser returns the text as it is; anything else cannot be run on the thread. */
function rawTypes(options: QueryOptions | undefined): number[] {
  const types: number[] = [];
  for (const [oid, parse] of Object.entries(options?.parsers ?? {})) {
    if (parse('2000-01-01 00:00:00', Number(oid)) !== '2000-01-01 00:00:00') {
      throw new Error(`a parser for type ${oid} that changes the text cannot run on the database thread`);
    }
    types.push(Number(oid));
  }
  return types;
}

/** PGlite on its own thread, as the service's database handle sees it. */
export type PgliteThreadClient = {
  /** Resolves once PGlite is open on its thread; rejects with the reason it could not open. */
  opened: Promise<void>;
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * Starts PGlite on `start.dataDir` in its own thread. The client is usable at once: calls made
 * before PGlite is open wait in the thread's queue (`opened` says when it is).
 *
 * @example
 *   const client = startPgliteThread({ dataDir: './data', extraStartParams: [] });
 *   await client.query('SELECT 1');
 */
export function startPgliteThread(start: ThreadStart): PgliteThreadClient {
  const worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), { workerData: start });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | undefined;

  const opened = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  opened.catch(() => undefined); // the caller awaits it; this only keeps a failure from counting as unhandled
  worker.on('message', (response: ThreadResponse) => {
    const waiting = pending.get(response.id);
    if (waiting === undefined) return;
    pending.delete(response.id);
    if (response.ok) waiting.resolve(response.value);
    else waiting.reject(rebuild(response.error));
  });
  const fail = (error: Error) => {
    failure = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the database thread exited (code ${code})`)));

  const call = (request: ThreadRequest & { id: number }): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure);
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  const queryOn = <T>(tx: number | undefined, sql: string, params: unknown[] = [], options?: QueryOptions) =>
    call({ id: nextId++, type: 'query', ...(tx === undefined ? {} : { tx }), sql, params, rowMode: options?.rowMode, rawTypes: rawTypes(options) }) as Promise<
      Results<T>
    >;
  const execOn = (tx: number | undefined, sql: string, options?: QueryOptions) =>
    call({ id: nextId++, type: 'exec', ...(tx === undefined ? {} : { tx }), sql, rawTypes: rawTypes(options) }) as Promise<Results[]>;

  return {
    opened,
    query: (sql, params, options) => queryOn(undefined, sql, params, options),
    exec: (sql, options) => execOn(undefined, sql, options),
    async transaction(callback) {
      const id = nextId++;
      const ended = new Promise<unknown>((resolve, reject) => pending.set(-id, { resolve, reject }));
      ended.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
      // Opening can fail before the open answer comes (the ended answer then carries the error).
      await Promise.race([call({ id, type: 'begin' }), ended]);
      let closed = false;
      const tx = {
        query: <T>(sql: string, params?: unknown[], options?: QueryOptions) => queryOn<T>(id, sql, params, options),
        exec: (sql: string, options?: QueryOptions) => execOn(id, sql, options),
        get closed() {
          return closed;
        },
        rollback: async () => {
          throw new Error('tx.rollback() is not supported on the database thread: throw from the callback');
        },
      } as unknown as Transaction;
      let result: Awaited<ReturnType<typeof callback>>;
      try {
        result = await callback(tx);
      } catch (error) {
        worker.postMessage({ type: 'end', tx: id, commit: false } satisfies ThreadRequest);
        await ended.catch(() => undefined);
        closed = true;
        throw error;
      }
      worker.postMessage({ type: 'end', tx: id, commit: true } satisfies ThreadRequest);
      await ended;
      closed = true;
      return result;
    },
    async close() {
      if (failure) return;
      await call({ id: nextId++, type: 'close' });
      await worker.terminate();
    },
  };
}
