/**
 * The operator CLI, in-process through runCli on the test database: help, every command,
 * shop:connect and shop:disconnect, and errors as sentences with exit codes. What only a real
 * process shows (exit codes, a locked DATA_DIR, stdout flushed before exit) is in
 * cli-process.test.ts.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { shopCredentials } from '../../src/platform/connections.ts';
import type { CliIo } from '../../src/cli.ts';
import { testRedisUrl } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());


type Result = { code: number; stdout: string; stderr: string; opened: number };

/** Runs the CLI in-process on the test database (which it must not close). */
async function cli(argv: string[], env: Record<string, string> = {}, openDatabase?: CliIo['openDatabase']): Promise<Result> {
  const result: Result = { code: -1, stdout: '', stderr: '', opened: 0 };
  result.code = await runCli(argv, {
    stdout: (text) => (result.stdout += text),
    stderr: (text) => (result.stderr += text),
    env,
    openDatabase:
      openDatabase ??
      (async () => {
        result.opened += 1;
        return { ...t.ctx.database, close: async () => {} };
      }),
  });
  return result;
}

const json = <T>(result: Result): T => JSON.parse(result.stdout) as T;
let domains = 0;
const domain = () => `cli-${process.pid}-${(domains += 1)}-${Date.now()}.example.com`;

async function newShop(plan: string): Promise<string> {
  const created = await cli(['shop:create', '--domain', domain(), '--plan', plan, '--json']);
  expect(created.code).toBe(0);
  return json<{ shop: { id: string } }>(created).shop.id;
}

describe('help', () => {
  it.each([[[]], [['help']], [['--help']], [['-h']], [['frobnicate', '-h']]])(
    'prints the usage for %j without opening the database',
    async (argv) => {
      const out = await cli(argv, { PORT: 'not a port' });
      expect(out).toMatchObject({ code: 0, stderr: '', opened: 0 });
      for (const command of ['shop:create', 'shop:list', 'shop:show', 'shop:plan', 'key:create', 'key:list', 'key:revoke', 'storefront-token:create', 'shop:connect', 'shop:disconnect']) {
        expect(out.stdout).toContain(command);
      }
    },
  );
});

describe('commands', () => {
  it('creates a Scale shop and a key that the API accepts, without a warning', async () => {
    const shopId = await newShop('scale');
    const keyOut = await cli(['key:create', shopId, '--name', 'ci']);
    expect(keyOut).toMatchObject({ code: 0, stderr: '' });
    const key = keyOut.stdout.split('\n')[0] ?? '';
    expect((await t.api(key, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
  });

  it('creates the first key with the shop when asked (--key), printing it last', async () => {
    const out = await cli(['shop:create', '--domain', domain(), '--plan', 'scale', '--key']);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    const key = out.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(key).toMatch(/^gcr_/);
    expect((await t.api(key, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
  });

  it('warns on stderr that a key of a non-Scale shop answers 403, keeping the key last on stdout', async () => {
    const out = await cli(['shop:create', '--domain', domain(), '--plan', 'growth', '--key']);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/^Warning: Shop shp_\w+ is on the growth plan: this key answers 403 until the shop is on Scale/);
    const key = out.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect((await t.api(key, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(403);

    const shopId = await newShop('free');
    const asJson = await cli(['key:create', shopId, '--json']);
    expect(asJson.stderr).toBe('');
    expect(json<{ warnings: string[] }>(asJson).warnings).toEqual([expect.stringContaining('free plan')]);
  });

  it('lists every shop as a table and as JSON', async () => {
    const a = await newShop('free');
    const b = await newShop('pro');
    const table = await cli(['shop:list']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+DOMAIN\s+PLAN\s+CURRENCY\s+TIMEZONE\s+CREATED$/);
    const rowOf = (id: string) => lines.find((line) => line.startsWith(id)) ?? '';
    expect(rowOf(a)).toMatch(/ free +USD +UTC +\d{4}-/);
    expect(rowOf(b)).toMatch(/ pro +USD +UTC /);
    // Columns line up: the domain starts at the same place on every row.
    expect(new Set(lines.map((line) => line.search(/ \S*\.example\.com| DOMAIN/))).size).toBe(1);
    const { shops } = json<{ shops: Array<{ id: string; plan: string }> }>(await cli(['shop:list', '--json']));
    expect(shops.map((s) => s.id)).toEqual(expect.arrayContaining([a, b]));
    expect(shops.findIndex((s) => s.id === a)).toBeLessThan(shops.findIndex((s) => s.id === b));
  });

  it('changes a plan, lists and revokes keys, one shop at a time', async () => {
    const shopId = await newShop('free');
    const other = await newShop('scale');
    const otherKey = json<{ apiKey: { id: string }; key: string }>(await cli(['key:create', other, '--json']));
    expect(json<{ shop: { plan: string } }>(await cli(['shop:plan', shopId, 'pro', '--json'])).shop.plan).toBe('pro');
    const { apiKey, key } = json<{ apiKey: { id: string }; key: string }>(await cli(['key:create', shopId, '--json']));
    const listed = await cli(['key:list', shopId, '--json']);
    expect(json<{ apiKeys: Array<{ id: string }> }>(listed).apiKeys.map((k) => k.id)).toEqual([apiKey.id]);
    expect(listed.stdout).not.toContain(key);
    expect((await cli(['key:list', shopId])).stdout).toMatch(new RegExp(`^ID\\s+PREFIX\\s+NAME\\s+CREATED\n${apiKey.id}\\s+gcr_\\w+…\\s+API key\\s+\\d{4}-`));

    // Another shop's key is not found through this shop, and stays valid.
    const crossShop = await cli(['key:revoke', shopId, otherKey.apiKey.id]);
    expect(crossShop).toMatchObject({ code: 1, stderr: `Shop ${shopId} has no live key ${otherKey.apiKey.id}. \`npm run cli -- key:list ${shopId}\` lists them.\n` });
    expect((await t.api(otherKey.key, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);

    expect((await cli(['key:revoke', shopId, apiKey.id])).stdout).toBe(`Revoked key ${apiKey.id}: it now answers 401.\n`);
    expect(json<{ apiKeys: unknown[] }>(await cli(['key:list', shopId, '--json'])).apiKeys).toEqual([]);
    expect((await cli(['key:list', shopId])).stdout).toBe(`Shop ${shopId} has no live API keys.\n`);
  });

  it('creates a storefront token that opens /storefront/v1 from its origins, refusing a bad origin', async () => {
    const shopId = await newShop('free');
    const out = await cli(['storefront-token:create', shopId, '--origin', 'https://shop.example.com, http://localhost:3001']);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    const token = out.stdout.split('\n')[0] ?? '';
    expect(token).toMatch(/^spk_/);
    expect(out.stdout).toContain('for https://shop.example.com, http://localhost:3001');
    const headers = { 'x-storefront-token': token, origin: 'http://localhost:3001' };
    expect((await t.app.inject({ method: 'GET', url: '/storefront/v1/rules', headers })).statusCode).toBe(200);
    const bad = await cli(['storefront-token:create', shopId, '--origin', 'https://shop.example.com/path']);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/^--origin: Expected an origin/) });
    expect(await cli(['storefront-token:create', shopId])).toMatchObject({ code: 2, opened: 0, stderr: expect.stringMatching(/^storefront-token:create needs --origin\./) });
  });
});

describe('shop:connect and shop:disconnect', () => {
  const secretEnv = { PLATFORM_APP_SECRET: 'cli-platform-app-secret-0123456789' };
  const token = `shpat_${'d4'.repeat(16)}`;

  it('stores the token sealed, never prints it, and forgets it', async () => {
    const shopId = await newShop('free');
    const out = await cli(['shop:connect', shopId, '--access-token', token], secretEnv);
    expect(out).toMatchObject({ code: 0, stderr: '', stdout: `Shop ${shopId} is connected to the platform.\n` });
    const stored = await shopCredentials(t.ctx.db, secretEnv.PLATFORM_APP_SECRET, shopId);
    expect(stored).toMatchObject({ state: 'connected', accessToken: token });
    const asJson = await cli(['shop:connect', shopId, '--access-token', token, '--json'], secretEnv);
    expect(json<Record<string, unknown>>(asJson)).toEqual({ connected: true, connectedAt: expect.any(String) });
    expect(asJson.stdout).not.toContain(token.slice(6));
    expect(await cli(['shop:disconnect', shopId])).toMatchObject({ code: 0, stdout: `Shop ${shopId} is disconnected from the platform.\n` });
    expect(await shopCredentials(t.ctx.db, secretEnv.PLATFORM_APP_SECRET, shopId)).toEqual({ state: 'none' });
    expect(await cli(['shop:disconnect', shopId])).toMatchObject({ code: 1, stderr: expect.stringMatching(/holds no platform access token/) });
  });

  it('refuses a bad token, a missing one, an unknown shop, and runs only with PLATFORM_APP_SECRET', async () => {
    const shopId = await newShop('free');
    expect(await cli(['shop:connect', shopId, '--access-token', 'not a token'], secretEnv)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^--access-token: Expected an Admin API access token/) });
    expect(await cli(['shop:connect', shopId], secretEnv)).toMatchObject({ code: 2, opened: 0, stderr: expect.stringMatching(/^shop:connect needs --access-token\./) });
    expect(await cli(['shop:connect', 'shp_unknown000000000', '--access-token', token], secretEnv)).toMatchObject({ code: 1, stderr: expect.stringMatching(/not found/) });
    expect(await cli(['shop:connect', shopId, '--access-token', token])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^PLATFORM_APP_SECRET is not set/) });
    expect(await shopCredentials(t.ctx.db, secretEnv.PLATFORM_APP_SECRET, shopId)).toEqual({ state: 'none' });
  });
});

/**
 * Each write is a unit of work of the shop: after its commit the shop's shared version is new,
 * so a running server stops answering from what it cached (its keys, its shop row, the rules).
 * Only a shared version shows it: the CLI reaches one through REDIS_URL.
 */
describe.skipIf(testRedisUrl() === undefined)('running servers hear every write (REDIS_URL)', () => {
  it('plan, key, storefront token, connect, disconnect and revoke each set a new shop version', async () => {
    const versions = t.ctx.shopVersions;
    if (versions.mode !== 'redis') throw new Error(`the test app runs on Redis here, not ${versions.mode}`);
    const env = { REDIS_URL: testRedisUrl() ?? '', PLATFORM_APP_SECRET: 'cli-platform-app-secret-0123456789' };
    const shopId = await newShop('free');
    const key = json<{ apiKey: { id: string } }>(await cli(['key:create', shopId, '--json'], env)).apiKey.id;
    const commands = [
      ['shop:plan', shopId, 'scale'],
      ['key:create', shopId],
      ['storefront-token:create', shopId, '--origin', 'https://shop.example.com'],
      ['shop:connect', shopId, '--access-token', `shpat_${'e5'.repeat(16)}`],
      ['shop:disconnect', shopId],
      ['key:revoke', shopId, key],
    ];
    for (const argv of commands) {
      const before = await versions.read(shopId);
      expect(before).toEqual(expect.any(String));
      expect(await cli(argv, env), argv[0]).toMatchObject({ code: 0, stderr: '' });
      expect(await versions.read(shopId), argv[0]).not.toBe(before);
    }
  });
});

describe('errors are sentences with exit codes, never stacks', () => {
  it.each([
    // The command line is wrong: 2, before the database is opened.
    [['frobnicate'], 2, /^Unknown command "frobnicate"\. Run `npm run cli -- help`/],
    [['shop:show'], 2, /^shop:show needs <shopId>\. Usage: npm run cli -- shop:show <shopId>$/],
    [['key:revoke', 'shp_1'], 2, /^key:revoke needs <keyId>\./],
    [['shop:show', 'a', 'b'], 2, /^Unexpected argument "b"\./],
    [['key:list', 'shp_1', '--plan', 'pro'], 2, /^key:list takes no --plan option\./],
    [['shop:list', '--frob'], 2, /^Unknown option --frob\./],
    [['shop:create', '--domain'], 2, /^Option --domain needs a value\./],
    [['shop:create', '--plan', 'free'], 2, /^shop:create needs --domain\. Usage: npm run cli -- shop:create --domain/],
    [['shop:create', '--domain', 'x.example.com'], 2, /^shop:create needs --plan\./],
    // The command fails: 1.
    [['shop:create', '--domain', 'x.example.com', '--plan', 'gold'], 1, /^--plan must be free, growth, pro or scale, not "gold"\.$/],
    [['shop:create', '--domain', 'not a domain', '--plan', 'free'], 1, /^--domain: Expected a domain such as shop\.example\.com\.$/],
    [['shop:create', '--domain', 'x.example.com', '--plan', 'free', '--currency', 'XXX1'], 1, /^--currency: Expected an ISO 4217/],
    [['shop:show', 'shp_missing'], 1, /^Shop shp_missing not found\. `npm run cli -- shop:list` lists the shops\.$/],
    [['shop:plan', 'shp_missing', 'pro'], 1, /^Shop shp_missing not found\./],
    [['shop:plan', 'shp_missing', 'gold'], 1, /^The plan must be free, growth, pro or scale, not "gold"\.$/],
    [['key:revoke', 'shp_missing', 'key_x'], 1, /^Shop shp_missing not found\./],
  ])('%j', async (argv, code, message) => {
    const out = await cli(argv);
    expect(out.code).toBe(code);
    expect(out.stdout).toBe('');
    expect(out.stderr.trimEnd()).toMatch(message);
    expect(out.stderr).not.toMatch(/\n\s+at /);
    if (code === 2) expect(out.opened).toBe(0);
  });

  it('prints the version, and one command\'s help, without opening the database', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '', opened: 0 });
    const help = await cli(['shop:create', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '', opened: 0 });
    expect(help.stdout).toMatch(/^Usage: npm run cli -- shop:create --domain <domain> --plan/);
    expect(help.stdout).toContain('Creates a shop');
    expect(help.stdout).not.toContain('key:revoke');
  });

  it('reports a duplicate domain, and errors as JSON with --json', async () => {
    const taken = domain();
    await cli(['shop:create', '--domain', taken, '--plan', 'free']);
    const again = await cli(['shop:create', '--domain', taken, '--plan', 'free', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toEqual({ error: `A shop with domain ${taken} exists.` });
  });

  it('names a bad configuration and a database that cannot be opened', async () => {
    const badConfig = await cli(['shop:list'], { PORT: 'abc' });
    expect(badConfig).toMatchObject({ code: 1, opened: 0 });
    expect(badConfig.stderr).toMatch(/^Invalid configuration:\n {2}PORT: /);

    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const down = await cli(['shop:list'], { DATABASE_URL: 'postgres://127.0.0.1:1/x' }, async () => Promise.reject(refused));
    expect(down).toMatchObject({ code: 1, stderr: 'Could not open the database at DATABASE_URL: connect ECONNREFUSED 127.0.0.1:1.\n' });
  });
});
