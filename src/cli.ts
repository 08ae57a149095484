/**
 * The operator's CLI (CONTRACT "Admin API"): the same bootstrap as the admin API, straight
 * on the database, without the HTTP server. `npm run cli -- help` lists the commands.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys/store.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import type { Database } from './db/database.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { createShopBodySchema, patchShopBodySchema, presentShop } from './shops/shop-schemas.ts';
import { createShop, DuplicateDomainError, getShop, updateShop } from './shops/store.ts';

const HELP = `Usage: npm run cli -- <command> [options] [--json]

Commands:
  shop:create --domain <domain> --plan <free|growth|pro|scale> [--currency USD] [--timezone UTC] [--key]
              (--key also creates the shop's first API key and prints it last)
  shop:show <shopId>
  shop:plan <shopId> <free|growth|pro|scale>
  key:create <shopId> [--name <name>]
  key:list <shopId>
  key:revoke <shopId> <keyId>

Uses DATABASE_URL or DATA_DIR like the server. With the embedded database, stop the server
first (one process per data directory) or use the admin API instead.`;

export class CliError extends Error {
  override name = 'CliError';
}

type Output = { json: unknown; text: string };

function firstIssue(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'input'}: ${issue.message}` : 'invalid input';
}

async function shopOrFail(db: Database, shopId: string | undefined) {
  if (!shopId) throw new CliError('A shop id is required');
  const shop = await getShop(db, shopId);
  if (!shop) throw new CliError(`Shop ${shopId} not found`);
  return shop;
}

/** Runs one CLI command against `db`; exported so tests drive it without a subprocess. */
export async function runCommand(db: Database, config: Config, argv: string[]): Promise<Output> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      domain: { type: 'string' },
      plan: { type: 'string' },
      currency: { type: 'string' },
      timezone: { type: 'string' },
      name: { type: 'string' },
      key: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, ...args] = positionals;
  switch (command) {
    case 'shop:create': {
      const parsed = createShopBodySchema.safeParse({
        domain: values.domain,
        plan: values.plan,
        currency: values.currency,
        timezone: values.timezone,
      });
      if (!parsed.success) throw new CliError(firstIssue(parsed.error));
      try {
        const shop = presentShop(await createShop(db, parsed.data), config.planCaps);
        const text = `Created shop ${shop.id} (${shop.domain}, ${shop.plan})`;
        if (!values.key) return { json: { shop }, text };
        // --key: the first key too, printed last on its own line so `| tail -n 1` captures it.
        const { apiKey, key } = await createApiKey(db, shop.id, values.name ?? 'API key');
        const json = { shop, apiKey: { ...apiKey, createdAt: apiKey.createdAt.toISOString() }, key };
        return { json, text: `${text}\nAPI key (shown once, store it now):\n${key}` };
      } catch (error) {
        if (error instanceof DuplicateDomainError) throw new CliError(error.message);
        throw error;
      }
    }
    case 'shop:show': {
      const shop = presentShop(await shopOrFail(db, args[0]), config.planCaps);
      return { json: { shop }, text: JSON.stringify(shop, null, 2) };
    }
    case 'shop:plan': {
      const shop = await shopOrFail(db, args[0]);
      const parsed = patchShopBodySchema.safeParse({ plan: args[1] });
      if (!parsed.success || !parsed.data.plan) throw new CliError(`plan: expected free, growth, pro or scale`);
      const updated = await updateShop(db, shop.id, { plan: parsed.data.plan });
      if (!updated) throw new CliError(`Shop ${shop.id} not found`);
      return { json: { shop: presentShop(updated, config.planCaps) }, text: `Shop ${shop.id} is now on the ${updated.plan} plan` };
    }
    case 'key:create': {
      const shop = await shopOrFail(db, args[0]);
      const { apiKey, key } = await createApiKey(db, shop.id, values.name ?? 'API key');
      const json = { apiKey: { ...apiKey, createdAt: apiKey.createdAt.toISOString() }, key };
      return { json, text: `${key}\n(Shown once: store it now. Key id ${apiKey.id}, prefix ${apiKey.prefix})` };
    }
    case 'key:list': {
      const shop = await shopOrFail(db, args[0]);
      const keys = await listApiKeys(db, shop.id);
      const apiKeys = keys.map((k) => ({ ...k, createdAt: k.createdAt.toISOString() }));
      return { json: { apiKeys }, text: apiKeys.map((k) => `${k.id}  ${k.prefix}…  ${k.name}  ${k.createdAt}`).join('\n') || '(no keys)' };
    }
    case 'key:revoke': {
      const shop = await shopOrFail(db, args[0]);
      if (!args[1] || !(await revokeApiKey(db, shop.id, args[1]))) throw new CliError(`Key ${args[1] ?? ''} not found`);
      return { json: { ok: true }, text: `Revoked ${args[1]}` };
    }
    case undefined:
    case 'help':
      return { json: { help: HELP }, text: HELP };
    default:
      throw new CliError(`Unknown command ${command}\n\n${HELP}`);
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`${(error as ConfigError).message}\n`);
    return 1;
  }
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    handle = await openDatabase(config);
    const output = await runCommand(handle.db, config, argv);
    process.stdout.write(json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.text}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof CliError || error instanceof DataDirLockedError || error instanceof ConfigError;
    const message = known || (error instanceof Error && error.name === 'TypeError') ? (error as Error).message : String(error);
    process.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `${message}\n`);
    return 1;
  } finally {
    await handle?.close();
  }
}

// Run only as a program, not when a test imports runCommand.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
