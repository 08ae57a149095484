/**
 * Starting the server, as src/main.ts runs it: from source, or as the entry of the prebuilt
 * bundle (startup/server-bundle.ts). Starts opening the embedded database (open-early.ts) first,
 * then loads the server while it opens: every other import must come after, so they are dynamic
 * ones (inside the bundle too, esbuild keeps that order of evaluation).
 */
import type { Logger } from 'pino';
import type { Prebuilt } from '../server.ts';

/**
 * Starts the server; resolves with its logger once it listens. A failure to start exits 1.
 *
 * @example const logger = await startServer();
 */
export async function startServer(prebuilt: Prebuilt = {}): Promise<Logger> {
  const { openEarly } = await import('./open-early.ts');
  const early = openEarly();
  const { runServer } = await import('../server.ts');
  return runServer(early, prebuilt);
}
