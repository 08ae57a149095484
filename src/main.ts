/**
 * `npm start`. Makes module loading cheaper first (startup/module-loading.ts), then starts the
 * server (startup/run.ts): from the prebuilt bundle when it was built from exactly the files on
 * disk, otherwise from source, and then builds the bundle for the next start
 * (startup/server-bundle.ts, docs/performance.md "Start time and memory").
 */
import { fileURLToPath } from 'node:url';
import { flushModuleCaches, speedUpModuleLoading } from './startup/module-loading.ts';
import type * as Run from './startup/run.ts';
import { buildServerBundle, freshServerBundle, serverBundleDir, serverBundleEnabled } from './startup/server-bundle.ts';

/** How long after listening a start from source waits before building the bundle in the background. */
const BUILD_DELAY_MS = 3000;

speedUpModuleLoading();
const bundleDir = serverBundleDir(process.env);
const bundle = serverBundleEnabled(process.env) ? freshServerBundle(bundleDir) : undefined;
const logger = await (await importStart(bundle?.url)).startServer({ storefrontScript: bundle?.storefrontScript, adminApp: bundle?.adminApp });
flushModuleCaches();
if (bundle) {
  logger.info({ bundle: fileURLToPath(bundle.url) }, 'started from the prebuilt server bundle');
} else if (serverBundleEnabled(process.env)) {
  setTimeout(() => {
    buildServerBundle(bundleDir).then(
      (built) => logger.info({ bundle: built }, built ? 'server bundle built for the next start' : 'server bundle not built: a source file changed during the build'),
      (error: unknown) => logger.warn({ err: error }, 'server bundle build failed; starts keep running from source'),
    );
  }, BUILD_DELAY_MS).unref();
}

/**
 * The bundle's start, or the source's. A bundle removed between the manifest check and the import
 * (another server's build replaced it) falls back to source; nothing of it ran.
 */
async function importStart(url: string | undefined): Promise<typeof Run> {
  if (url !== undefined) {
    try {
      return (await import(url)) as typeof Run;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
  }
  return import('./startup/run.ts');
}
