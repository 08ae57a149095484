/**
 * `npm start`. Makes module loading cheaper first (startup/module-loading.ts), starts opening
 * the embedded database (startup/open-early.ts), then loads and runs the server (server.ts)
 * while it opens: every other import must come after, so they are dynamic ones.
 */
import { flushModuleCaches, speedUpModuleLoading } from './startup/module-loading.ts';

speedUpModuleLoading();
const { openEarly } = await import('./startup/open-early.ts');
const early = openEarly(process.env);
const { runServer } = await import('./server.ts');
await runServer(early);
flushModuleCaches();
