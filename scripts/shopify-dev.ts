/**
 * What `shopify app dev` runs (shopify.web.toml `[commands] dev`): the service, with the
 * environment the platform's CLI gives its web process mapped onto the service's settings
 * (docs/app-configuration.md "shopify.web.toml"). The CLI sets HOST to the app's public URL
 * (its tunnel), while the service reads HOST as its bind address, hence a mapping rather than
 * the same names.
 *
 *   npm run dev:shopify   # normally started by `shopify app dev`
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI's names → the service's (src/config.ts). */
const FROM_CLI = [
  ['SHOPIFY_API_KEY', 'PLATFORM_APP_KEY'],
  ['SHOPIFY_API_SECRET', 'PLATFORM_APP_SECRET'],
  ['APP_URL', 'PUBLIC_URL'],
  ['PORT', 'PORT'],
] as const;

/**
 * The service's environment from the CLI's: a setting already set explicitly wins; HOST (the
 * CLI's public URL) becomes PUBLIC_URL when APP_URL is absent, and the bind address is loopback,
 * where the CLI's proxy reaches the process.
 *
 * @example serviceEnv({ SHOPIFY_API_KEY: 'k', HOST: 'https://x.trycloudflare.com', PORT: '51000' })
 *   // { PLATFORM_APP_KEY: 'k', PUBLIC_URL: 'https://x.trycloudflare.com', PORT: '51000', HOST: '127.0.0.1', … }
 */
export function serviceEnv(cli: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...cli, APP_URL: cli.APP_URL ?? cli.HOST };
  for (const [from, to] of FROM_CLI) {
    if (env[from] !== undefined && (to === from || cli[to] === undefined)) env[to] = env[from];
  }
  env.HOST = '127.0.0.1';
  return env;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@gcrs/source', main], { env: serviceEnv(process.env), stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128);
  });
}
