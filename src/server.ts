/**
 * The server of `npm start` (src/startup/run.ts loads it): parse the configuration, open the database
 * (migrations run at start), serve. SIGTERM or SIGINT drains in-flight requests and background
 * work, then exits 0.
 */
import { readFileSync } from 'node:fs';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { createAppContext } from './context.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { describeOpenError } from './db/open-error.ts';
import { usePrebuiltAppFiles, warmAppBundle } from './merchant-admin/static.ts';
import { loadStorefrontScript } from './storefront/script-route.ts';
import type { EarlyStart } from './startup/open-early.ts';
import type { Logger } from 'pino';
import { createWorkers, startWorkers, stopWorkers } from './workers.ts';

/** The longest the workers wait for the first request to be answered before they start anyway. */
const WORKERS_START_DELAY_MS = 1000;

/** What the prebuilt server bundle brings along (startup/server-bundle.ts). */
export type Prebuilt = { storefrontScript?: string | undefined; adminApp?: { js: string; css: string } | undefined };

async function main(early: EarlyStart | undefined, prebuilt: Prebuilt): Promise<Logger> {
  let stopping = false;
  if (early?.ok === false) throw early.error;
  const config = early?.config ?? loadConfig();
  // The storefront script builds (esbuild runs in its own process), or is read prebuilt, while the
  // database opens. It is awaited before listening: a broken build fails the start, not a
  // shopper's page.
  const script = loadStorefrontScript(prebuilt.storefrontScript);
  // The merchant admin's files too, when the bundle brought them: its first request builds nothing.
  if (prebuilt.adminApp) usePrebuiltAppFiles({ js: readFileSync(prebuilt.adminApp.js), css: readFileSync(prebuilt.adminApp.css) });
  script.catch(() => undefined); // only marks an early rejection as handled; `await script` below still throws it
  const ctx = await createAppContext(config, { startedPglite: early?.startedPglite }).catch(notOpened(config));
  const app = await buildApp(ctx);
  await script;
  // Routes were built while PGlite opened on its own thread; nothing is served before it is open
  // and migrated (a failure to open stops the start here).
  await ctx.database.ready?.catch(notOpened(config));
  const workers = createWorkers(ctx);
  // The workers' first passes (outbox claim, retention deletes: ~0.3 s of queries on PGlite's
  // one connection) start once the first request has been answered, or after
  // WORKERS_START_DELAY_MS, whichever comes first: the first request (a readiness probe,
  // usually) never queues behind housekeeping (docs/performance.md "Start time and memory").
  let workersStarted = false;
  const startWorkersOnce = () => {
    clearTimeout(workersTimer);
    if (workersStarted || stopping) return;
    workersStarted = true;
    startWorkers(workers);
  };
  const workersTimer = setTimeout(startWorkersOnce, WORKERS_START_DELAY_MS);
  app.server.once('request', (_request, response) => response.once('close', startWorkersOnce));
  // Before listening: a SIGTERM right after the port opens still drains instead of killing.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down: draining requests and background work');
    try {
      await app.close();
      clearTimeout(workersTimer);
      if (workersStarted) await stopWorkers(workers);
      await ctx.close();
      process.exit(0);
    } catch (error) {
      ctx.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  const address = await app.listen({ port: config.port, host: config.host });
  // Where a newcomer goes next (README "Quick start"): the landing page links the admin and the docs.
  const origin = address.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://[::1]');
  ctx.logger.info({ admin: `${origin}/app/`, docs: `${origin}/docs` }, `ready: open ${origin}/ in a browser (merchant admin at /app/, API reference at /docs)`);
  // The merchant admin's front end (~1.2 s of esbuild) builds after listening: it never delays
  // readiness, and the first /app/ request waits for it at most (docs/merchant-admin.md).
  warmAppBundle((error) => ctx.logger.error({ err: error }, 'merchant admin build failed'));
  return ctx.logger;
}

/** A database that does not open ends the start with one sentence naming its setting. */
class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

function notOpened(config: Config): (error: unknown) => never {
  return (error) => {
    if (error instanceof DataDirLockedError) throw error;
    throw new DatabaseOpenError(describeOpenError(error, config), { cause: error });
  };
}

/**
 * Starts the server; resolves with its logger once it listens (its workers start at the first
 * answer or 1 s later). A failure to start exits 1.
 * `early` is what startup/run.ts started before loading this module (startup/open-early.ts).
 *
 * @example
 *   const logger = await runServer(openEarly());
 */
export function runServer(early?: EarlyStart, prebuilt: Prebuilt = {}): Promise<Logger> {
  return main(early, prebuilt).catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DatabaseOpenError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  });
}
