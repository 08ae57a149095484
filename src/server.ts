/**
 * The server of `npm start` (src/main.ts loads it): parse the configuration, open the database
 * (migrations run at start), serve. SIGTERM or SIGINT drains in-flight requests and background
 * work, then exits 0.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createAppContext } from './context.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { warmAppBundle } from './merchant-admin/static.ts';
import { loadStorefrontScript } from './storefront/script-route.ts';
import { createWorkers, startWorkers, stopWorkers } from './workers.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // The storefront script builds (esbuild runs in its own process) while the database opens.
  // It is awaited before listening: a broken build fails the start, not a shopper's page.
  const script = loadStorefrontScript();
  script.catch(() => undefined); // only marks an early rejection as handled; `await script` below still throws it
  const ctx = await createAppContext(config);
  const app = await buildApp(ctx);
  await script;
  await app.listen({ port: config.port, host: config.host });
  const workers = createWorkers(ctx);
  startWorkers(workers);
  // The merchant admin's front end (~1.2 s of esbuild) builds after listening: it never delays
  // readiness, and the first /app/ request waits for it at most (docs/merchant-admin.md).
  warmAppBundle((error) => ctx.logger.error({ err: error }, 'merchant admin build failed'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down: draining requests and background work');
    try {
      await app.close();
      await stopWorkers(workers);
      await ctx.close();
      process.exit(0);
    } catch (error) {
      ctx.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * Starts the server; resolves once it listens and its workers run. A failure to start exits 1.
 *
 * @example
 *   await runServer();
 */
export function runServer(): Promise<void> {
  return main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  });
}
