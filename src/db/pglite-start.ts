/**
 * The first half of opening the embedded database: take the data directory's lock, then start
 * PGlite (compile its WebAssembly, load its file system, start PostgreSQL in single-user mode),
 * ~0.6 s of a start on an existing directory. Nothing of drizzle or of the schema is imported
 * here, so src/main.ts can begin this before it loads the rest of the server and let the two
 * overlap (docs/performance.md "Start time and memory"). database.ts's openPglite finishes the
 * open: drizzle and migrations, before any request can be served.
 */
import type { PGlite } from '@electric-sql/pglite';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { startPgliteThread } from './pglite-thread-client.ts';
import type { PgliteThreadClient } from './pglite-thread-client.ts';

/** PostgreSQL's buffer cache inside PGlite when the configuration does not say (docs/performance.md "Start time and memory"). */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '32MB';

export type StartedPglite = {
  /** PGlite itself (an in-memory database), or PGlite on its own thread (a data directory). */
  client: PGlite | PgliteThreadClient;
  /** Releases the data directory's lock (a no-op for an in-memory database). */
  release: () => void;
};

/**
 * Locks `source.dataDir` (when it is a directory) and starts PGlite on it. On failure the lock
 * is released and the error rethrown. With `awaitOpen: false` (the server's start) a data
 * directory's start resolves once the lock is taken and PGlite's thread started: its queries wait
 * for the open, and a failure to open reaches the first of them.
 *
 * @example
 *   const { client, release } = await startPglite({ dataDir: './data' });
 */
export async function startPglite(
  source: { dataDir: string } | { loadDataDir: Blob },
  options: { sharedBuffers?: string | undefined; awaitOpen?: boolean } = {},
): Promise<StartedPglite> {
  // The lock is taken before the database is touched: a second process stops here.
  const release = 'dataDir' in source ? await acquireDataDirLock(source.dataDir) : () => {};
  try {
    const sharedBuffers = ['-c', `shared_buffers=${options.sharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS}`];
    if ('dataDir' in source) {
      const client = startPgliteThread({ dataDir: source.dataDir, extraStartParams: sharedBuffers });
      if (options.awaitOpen === false) {
        // The caller's first query reports a failure to open; the lock goes with it.
        client.opened.catch(release);
      } else {
        await client.opened;
      }
      return { client, release };
    }
    const { PGlite } = await import('@electric-sql/pglite');
    const client = await PGlite.create({ loadDataDir: source.loadDataDir, startParams: [...PGlite.defaultStartParams, ...sharedBuffers] });
    return { client, release };
  } catch (error) {
    release();
    throw error;
  }
}
