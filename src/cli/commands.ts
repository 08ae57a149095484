/**
 * The CLI's commands (CONTRACT "Admin API": the same bootstrap without the HTTP server). Each
 * returns what to print — text for a terminal, JSON for scripts — and any warnings; the
 * caller (src/cli.ts) decides where they go. Every write of a shop runs as a unit of work of
 * the shop (shops/unit-of-work.ts), like the same write through the admin API.
 */
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys/store.ts';
import type { ApiKeyRecord } from '../api-keys/store.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { loginLinkFor } from '../merchant-admin/login-link-routes.ts';
import { hasApiAccess, planSchema } from '../shops/plans.ts';
import { accessTokenSchema, connectionStatus, connectShop, disconnectShop } from '../platform/connections.ts';
import { createShopBodySchema, presentShop } from '../shops/shop-schemas.ts';
import { patchShop } from '../shops/patch-shop.ts';
import { createShop, DuplicateDomainError, getShop, listShops } from '../shops/store.ts';
import type { ShopRecord } from '../shops/store.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import type { ShopUnitOfWork, WriteShopDeps } from '../shops/unit-of-work.ts';
import { allowedOriginsSchema, createStorefrontToken } from '../storefront/tokens.ts';
import { queueConfigSync } from '../checkout/queue-config-sync.ts';
import { CliError } from './command-line.ts';
import type { CommandLine } from './command-line.ts';

export type CommandOutput = { json: Record<string, unknown>; text: string; warnings: string[] };

const PLAN_LIST = `${planSchema.options.slice(0, -1).join(', ')} or ${planSchema.options.at(-1) ?? ''}`;

const shopNotFound = (shopId: string) => new CliError(`Shop ${shopId} not found. \`npm run cli -- shop:list\` lists the shops.`);

async function shopOrFail(db: Database, shopId: string): Promise<ShopRecord> {
  const shop = await getShop(db, shopId);
  if (!shop) throw shopNotFound(shopId);
  return shop;
}

/** SPEC "Authentication": only Scale shops may use the API, so a key of another plan is refused. */
function keyWarnings(shop: ShopRecord): string[] {
  if (hasApiAccess(shop.plan)) return [];
  return [
    `Shop ${shop.id} is on the ${shop.plan} plan: this key answers 403 until the shop is on Scale ` +
      `(npm run cli -- shop:plan ${shop.id} scale).`,
  ];
}

const presentKey = (apiKey: ApiKeyRecord) => ({ ...apiKey, createdAt: apiKey.createdAt.toISOString() });

/** Columns padded to their widest cell, two spaces apart. */
function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

async function createShopCommand(shopWrites: CliShopWrites, config: Config, options: Extract<CommandLine, { kind: 'command' }>['options']) {
  const { db } = shopWrites.deps;
  const parsed = createShopBodySchema.safeParse({
    domain: options.domain,
    plan: options.plan,
    currency: options.currency,
    timezone: options.timezone,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'domain');
    if (options[field as keyof typeof options] === undefined) throw new CliError(`--${field} is required.`);
    if (field === 'plan') throw new CliError(`--plan must be ${PLAN_LIST}, not "${options.plan ?? ''}".`);
    throw new CliError(`--${field}: ${issue?.message ?? 'invalid value'}.`);
  }
  let created: ShopRecord;
  try {
    created = await createShop(db, parsed.data);
  } catch (error) {
    if (error instanceof DuplicateDomainError) throw new CliError(`${error.message}.`);
    throw error;
  }
  const shop = presentShop(created, config.planCaps, await connectionStatus(db, created.id));
  const text = `Created shop ${shop.id} (${shop.domain}, ${shop.plan} plan).`;
  if (!options.key) return { json: { shop }, text, warnings: [] };
  // --key: the first key too, printed last on its own line so `| tail -n 1` captures it.
  const { apiKey, key } = await shopWrites.write(created.id, (uow) => createApiKey(uow.tx, uow.shop.id, options.name ?? 'API key'));
  return {
    json: { shop, apiKey: presentKey(apiKey), key },
    text: `${text}\nAPI key (shown once, store it now):\n${key}`,
    warnings: [...keyWarnings(created), ...shopWrites.warnings()],
  };
}

/**
 * Sets the shop's shared version after a committed change (cache/shop-versions.ts), so
 * running servers stop authenticating from memory; false when that could not be done.
 */
export type BumpShopVersion = (shopId: string) => Promise<boolean>;

/** What a command says when the running servers could not be told at once. */
const staleWarning = (shopId: string) =>
  `Redis did not take the change of shop ${shopId}: running servers may still answer as before for up to 30 seconds.`;

type CliShopWrites = {
  deps: WriteShopDeps;
  /** writeShop, a vanished shop said as a sentence. */
  write<T>(shopId: string, work: (uow: ShopUnitOfWork) => Promise<T>): Promise<T>;
  /** Runs `write`-like work (patchShop) with the same sentence for a vanished shop. */
  guard<T>(shopId: string, run: () => Promise<T>): Promise<T>;
  /** One sentence per shop whose new version Redis did not take. */
  warnings(): string[];
};

/**
 * The unit of work as the CLI runs it: the CLI holds no rules cache and no invalidation bus
 * (no server runs in it), so what tells running servers is the shop version the unit of work
 * bumps after every commit (`bump`, REDIS_URL); their rules caches follow the shop row it
 * makes them read again.
 */
function cliShopWrites(db: Database, bump: BumpShopVersion): CliShopWrites {
  const stale = new Set<string>();
  const deps: WriteShopDeps = {
    db,
    rulesCache: { invalidate: () => {} },
    shopVersions: {
      bump: async (shopId) => {
        const told = await bump(shopId);
        if (!told) stale.add(shopId);
        return told;
      },
    },
    invalidation: { publish: () => {} },
  };
  const guard = async <T>(shopId: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.body.error === 'Shop not found') throw shopNotFound(shopId);
      throw error;
    }
  };
  return {
    deps,
    guard,
    write: (shopId, work) => guard(shopId, () => writeShop(deps, shopId, work)),
    warnings: () => [...stale].map(staleWarning),
  };
}

/**
 * Runs one parsed command against `db`; `bump` tells running servers (REDIS_URL) what changed.
 *
 * @example
 *   const out = await runCommand(db, config, parseCommandLine(['shop:list']), async () => true);
 */
export async function runCommand(
  db: Database,
  config: Config,
  line: Extract<CommandLine, { kind: 'command' }>,
  bump: BumpShopVersion,
): Promise<CommandOutput> {
  const { args, options } = line;
  const shopId = args.shopId ?? '';
  const shopWrites = cliShopWrites(db, bump);
  switch (line.name) {
    case 'shop:create':
      return createShopCommand(shopWrites, config, options);
    case 'shop:list': {
      const shops = await Promise.all((await listShops(db)).map(async (shop) => presentShop(shop, config.planCaps, await connectionStatus(db, shop.id))));
      const text =
        shops.length === 0
          ? 'No shops yet. Create one with `npm run cli -- shop:create --domain <domain> --plan <plan>`.'
          : table(
              ['ID', 'DOMAIN', 'PLAN', 'CURRENCY', 'TIMEZONE', 'CREATED'],
              shops.map((s) => [s.id, s.domain, s.plan, s.currency, s.timezone, s.createdAt]),
            );
      return { json: { shops }, text, warnings: [] };
    }
    case 'shop:show': {
      const found = await shopOrFail(db, shopId);
      const shop = presentShop(found, config.planCaps, await connectionStatus(db, found.id));
      return { json: { shop }, text: JSON.stringify(shop, null, 2), warnings: [] };
    }
    case 'shop:plan': {
      const plan = planSchema.safeParse(args.plan);
      if (!plan.success) throw new CliError(`The plan must be ${PLAN_LIST}, not "${args.plan ?? ''}".`);
      // As the admin API's PATCH: the plan shapes GET /rules, so the rules are touched.
      const updated = await shopWrites.guard(shopId, () => patchShop(shopWrites.deps, shopId, { plan: plan.data }));
      const shop = presentShop(updated, config.planCaps, await connectionStatus(db, updated.id));
      return { json: { shop }, text: `Shop ${updated.id} is now on the ${updated.plan} plan.`, warnings: shopWrites.warnings() };
    }
    case 'key:create': {
      const { shop, created } = await shopWrites.write(shopId, async (uow) => ({ shop: uow.shop, created: await createApiKey(uow.tx, uow.shop.id, options.name ?? 'API key') }));
      const { apiKey, key } = created;
      return {
        json: { apiKey: presentKey(apiKey), key },
        text: `${key}\n(Shown once: store it now. Key id ${apiKey.id}, prefix ${apiKey.prefix}.)`,
        warnings: [...keyWarnings(shop), ...shopWrites.warnings()],
      };
    }
    case 'key:list': {
      const shop = await shopOrFail(db, shopId);
      const apiKeys = (await listApiKeys(db, shop.id)).map(presentKey);
      const text =
        apiKeys.length === 0
          ? `Shop ${shop.id} has no live API keys.`
          : table(['ID', 'PREFIX', 'NAME', 'CREATED'], apiKeys.map((k) => [k.id, `${k.prefix}…`, k.name, k.createdAt]));
      return { json: { apiKeys }, text, warnings: [] };
    }
    case 'key:revoke': {
      const keyId = args.keyId ?? '';
      await shopWrites.write(shopId, async (uow) => {
        if (!(await revokeApiKey(uow.tx, uow.shop.id, keyId))) {
          throw new CliError(`Shop ${shopId} has no live key ${keyId}. \`npm run cli -- key:list ${shopId}\` lists them.`);
        }
      });
      return { json: { ok: true }, text: `Revoked key ${keyId}: it now answers 401.`, warnings: shopWrites.warnings() };
    }
    case 'shop:login-link': {
      const shop = await shopOrFail(db, shopId);
      const link = await loginLinkFor({ db, config, now: () => new Date() }, shop.id);
      return {
        json: { loginLink: link },
        text: `${link.url}\n(Opens the merchant admin of ${shop.domain} once, until ${link.expiresAt}.)`,
        warnings: [],
      };
    }
    case 'storefront-token:create': {
      if (options.origin === undefined) throw new CliError('--origin is required (one origin, or several separated by commas).');
      const origins = allowedOriginsSchema.safeParse(options.origin.split(',').map((origin) => origin.trim()));
      if (!origins.success) throw new CliError(`--origin: ${origins.error.issues[0]?.message ?? 'invalid origin'}.`);
      const { record, token } = await shopWrites.write(shopId, (uow) => createStorefrontToken(uow.tx, uow.shop.id, origins.data));
      return {
        json: { storefrontToken: { ...record, createdAt: record.createdAt.toISOString() }, token },
        text: `${token}\n(Shown once: store it now. Token id ${record.id}, for ${record.allowedOrigins.join(', ')}.)`,
        warnings: shopWrites.warnings(),
      };
    }
    case 'shop:connect': {
      const secret = config.platformAppSecret;
      if (secret === undefined) throw new CliError('PLATFORM_APP_SECRET is not set: the token is sealed with a key derived from it.');
      if (options['access-token'] === undefined) throw new CliError('--access-token is required.');
      const token = accessTokenSchema.safeParse(options['access-token']);
      if (!token.success) throw new CliError(`--access-token: ${token.error.issues[0]?.message ?? 'invalid token'}.`);
      const { status, queued } = await shopWrites.write(shopId, async (uow) => {
        const now = new Date();
        return { status: await connectShop(uow.tx, secret, uow.shop.id, token.data, now), queued: await queueConfigSync(uow.tx, uow.shop.id, now) };
      });
      return {
        json: { connected: true, connectedAt: status.connectedAt?.toISOString() ?? null },
        text: `Shop ${shopId} is connected to the platform${queued ? '; a discount sync is queued' : ''}.`,
        warnings: shopWrites.warnings(),
      };
    }
    case 'shop:disconnect': {
      await shopWrites.write(shopId, async (uow) => {
        if (!(await disconnectShop(uow.tx, uow.shop.id))) throw new CliError(`Shop ${shopId} holds no platform access token.`);
      });
      return { json: { connected: false }, text: `Shop ${shopId} is disconnected from the platform.`, warnings: shopWrites.warnings() };
    }
  }
}
