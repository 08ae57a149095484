/**
 * The operator's CLI (CONTRACT "Admin API"): the same bootstrap as the admin API, straight
 * on the database, without the HTTP server. `npm run cli -- help` lists the commands.
 *
 * Order of work, so that the cheap answers never need the database: parse the command line
 * (help and usage errors end here), then the configuration, then open the database, then run.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, parseCommandLine, USAGE } from './cli/command-line.ts';
import type { CommandLine } from './cli/command-line.ts';
import type { CommandOutput } from './cli/commands.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { describeOpenError } from './db/open-error.ts';
// Only the target's shape: ioredis itself is loaded by createRedisConnection, at the first bump.
import { redisTargetOf } from './redis/connection.ts';

export type CliIo = {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The environment to configure from; the process's by default (config.ts reads it). */
  env?: Record<string, string | undefined>;
  /** Opens the configured database; tests hand in theirs. The real one by default. */
  openDatabase?: (config: Config) => Promise<DatabaseHandle>;
  /** HTTP to a running server (`shop:login-link` while it holds the data directory); global fetch by default. */
  fetch?: typeof fetch;
};

// Loaded only when a command needs them: `help` then starts without the database driver.
const openConfiguredDatabase = async (config: Config): Promise<DatabaseHandle> =>
  (await import('./db/database.ts')).openDatabase(config);
const loadCommands = () => import('./cli/commands.ts');

/**
 * The shop-version bump of commands that change what servers authenticate (plan, revocation):
 * with REDIS_URL (or REDIS_CLUSTER_NODES), a connection opened at the first bump, waited for up to the connect timeout;
 * without it there is nothing to tell (PostgreSQL alone: servers do not cache keys; PGlite:
 * no server runs while the CLI holds the data directory).
 */
function versionBumper(config: Config): { bump: (shopId: string) => Promise<boolean>; close(): Promise<void> } {
  const redisTarget = redisTargetOf(config);
  if (redisTarget === undefined) return { bump: async () => true, close: async () => {} };
  let opened: Promise<{ bump: (shopId: string) => Promise<boolean>; close(): Promise<void> }> | undefined;
  const open = async () => {
    const [{ createRedisConnection }, { createRedisShopVersions }, { default: pino }] = await Promise.all([
      import('./redis/connection.ts'),
      import('./cache/shop-versions.ts'),
      import('pino'),
    ]);
    const logger = pino({ level: 'silent' });
    // Resolves once the connection is ready, refused, or past the connect timeout.
    const redis = await createRedisConnection(redisTarget, { timeoutMs: config.redisTimeoutMs, logger });
    const versions = createRedisShopVersions(redis, logger);
    return {
      bump: (shopId: string) => versions.bump(shopId),
      async close() {
        versions.close();
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  };
  return {
    bump: async (shopId) => (await (opened ??= open())).bump(shopId),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}

/** The running server's address, as this configuration's PORT and HOST reach it. */
function serverOrigin(config: Config): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** What to do instead while the server holds the embedded database: its admin API does the same. */
function runningServerHint(config: Config): string {
  return `While the server runs, use its admin API instead: ${serverOrigin(config)}/admin/v1 with "Authorization: Bearer $ADMIN_TOKEN" (README "Administration"; GET /admin/v1/shops lists the shops).`;
}

/**
 * `shop:login-link` while the server holds the embedded database (the README's newcomer runs it
 * in a second terminal): the server makes the link through its admin API (`POST
 * /admin/v1/shops/:shopId/login-links`, same code), reached on this configuration's PORT with its
 * ADMIN_TOKEN. Without ADMIN_TOKEN the lock's own message explains what to do.
 */
async function loginLinkFromServer(config: Config, shopId: string, fetchFn: typeof fetch): Promise<CommandOutput> {
  const origin = serverOrigin(config);
  let res: Response;
  try {
    res = await fetchFn(`${origin}/admin/v1/shops/${encodeURIComponent(shopId)}/login-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.adminToken ?? ''}` },
    });
  } catch {
    throw new CliError(`The data directory is held by a running server, and ${origin} did not answer: stop the server, or check PORT and HOST.`);
  }
  const body = (await res.json().catch(() => ({}))) as { url?: string; expiresAt?: string; error?: string };
  if (res.status === 404 && body.error === 'Shop not found') {
    throw new CliError(`Shop ${shopId} not found. \`npm run cli -- shop:list\` lists the shops (with the server stopped).`);
  }
  if (res.status !== 201 || body.url === undefined || body.expiresAt === undefined) {
    throw new CliError(`The running server at ${origin} refused the login link (${res.status}${body.error ? `: ${body.error}` : ''}); is ADMIN_TOKEN the server's?`);
  }
  const link = { url: body.url, expiresAt: body.expiresAt };
  return {
    json: { loginLink: link },
    text: `${link.url}\n(Opens the merchant admin once, until ${link.expiresAt}; made by the running server at ${origin}.)`,
    warnings: [],
  };
}

async function execute(line: Extract<CommandLine, { kind: 'command' }>, io: CliIo): Promise<CommandOutput> {
  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
  let handle: DatabaseHandle;
  try {
    handle = await (io.openDatabase ?? openConfiguredDatabase)(config);
  } catch (error) {
    const locked = error instanceof Error && error.name === 'DataDirLockedError';
    if (locked && line.name === 'shop:login-link' && config.adminToken !== undefined) {
      return loginLinkFromServer(config, line.args.shopId ?? '', io.fetch ?? fetch);
    }
    throw new CliError(locked ? `${describeOpenError(error, config)} ${runningServerHint(config)}` : describeOpenError(error, config));
  }
  const versions = versionBumper(config);
  try {
    const { runCommand } = await loadCommands();
    return await runCommand(handle.db, config, line, versions.bump);
  } finally {
    await versions.close();
    await handle.close();
  }
}

/**
 * Runs the CLI on `argv` (without node and the script), writing to `io`; resolves to the exit
 * code: 0 done, 1 the command failed, 2 the command line is wrong. Never throws.
 *
 * @example
 *   const code = await runCli(['shop:list', '--json'], { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) });
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (message: string, code: number) => {
    io.stderr(json ? `${JSON.stringify({ error: message })}\n` : `${message}\n`);
    return code;
  };
  try {
    const line = parseCommandLine(argv);
    if (line.kind === 'help' || line.kind === 'command-help') {
      io.stdout(`${line.kind === 'help' ? USAGE : line.text}\n`);
      return 0;
    }
    if (line.kind === 'version') {
      io.stdout(`${serviceVersion()}\n`);
      return 0;
    }
    const output = await execute(line, io);
    if (json) {
      const body = output.warnings.length > 0 ? { ...output.json, warnings: output.warnings } : output.json;
      io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    } else {
      // Warnings on stderr: stdout stays what scripts capture (`| tail -n 1` for a key).
      for (const warning of output.warnings) io.stderr(`Warning: ${warning}\n`);
      io.stdout(`${output.text}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) return fail(error.message, error.exitCode);
    // A bug or an infrastructure failure: the stack helps whoever reports it.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return fail(`The command failed unexpectedly: ${detail}`, 1);
  }
}

/** The version in package.json, read when asked (the CLI does not load it otherwise). */
function serviceVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

// Run only as a program, not when a test imports runCli.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
