/**
 * `npm start`. Makes module loading cheaper first (startup/module-loading.ts), then loads and
 * runs the server (server.ts): every other import must come after, so it is a dynamic one.
 */
import { flushModuleCaches, speedUpModuleLoading } from './startup/module-loading.ts';

speedUpModuleLoading();
const { runServer } = await import('./server.ts');
await runServer();
flushModuleCaches();
