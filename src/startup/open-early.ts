/**
 * What src/main.ts starts before it loads the server's modules: the configuration, and on the
 * embedded database the data directory's lock and PGlite's start (db/pglite-start.ts).
 *
 * Why: on an existing directory PGlite.create (~0.6 s: compiling 9 MB of WebAssembly, most of
 * it off the main thread, loading its file system, starting PostgreSQL) and loading the
 * server's modules (~0.4 s) used to run one after the other. Started first, the database opens
 * while the modules load. Nothing is served earlier: the server still awaits the open, and the
 * open still applies migrations before it resolves (database.ts); the lock is still taken
 * before PGlite touches the directory.
 */
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { startPglite } from '../db/pglite-start.ts';
import type { StartedPglite } from '../db/pglite-start.ts';

export type EarlyStart =
  | { ok: true; config: Config; startedPglite: Promise<StartedPglite> | undefined }
  /** The configuration did not parse: the server reports it as it always did. */
  | { ok: false; error: unknown };

/**
 * Parses `env` (the process's, by default: config.ts reads it) and, for the embedded database,
 * starts opening it.
 *
 * @example
 *   const early = openEarly();
 *   await (await import('../server.ts')).runServer(early);
 */
export function openEarly(env?: Record<string, string | undefined>): EarlyStart {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    return { ok: false, error };
  }
  const startedPglite = config.databaseUrl
    ? undefined
    : startPglite({ dataDir: config.dataDir }, { sharedBuffers: config.pgliteSharedBuffers, awaitOpen: false });
  // Awaited by the server (a failure, such as a locked directory, is reported there); this only
  // keeps a failure that comes before then from counting as unhandled.
  startedPglite?.catch(() => undefined);
  return { ok: true, config, startedPglite };
}
