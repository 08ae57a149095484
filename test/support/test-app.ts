/**
 * The app under test: a real database of the project's kind, the real wiring, driven
 * in-process with app.inject(). Helpers create shops and keys through the admin API.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import { createAppContext, createLogger } from '../../src/context.ts';
import type { AppContext } from '../../src/context.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { Compressor } from '../../src/rules/representations.ts';
import { createTestDatabase, testRedisUrl } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export type TestShop = { id: string; key: string; plan: string };

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  /** An API call with the shop's key. */
  api(shop: TestShop | string, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** An admin API call with the admin token. */
  admin(options: InjectOptions): Promise<LightMyRequestResponse>;
  createShop(plan?: 'free' | 'growth' | 'pro' | 'scale', extra?: Record<string, unknown>): Promise<TestShop>;
  close(): Promise<void>;
};

let domainCounter = 0;

/**
 * Starts the app on a fresh database. `env` adds environment settings (as strings).
 *
 * @example
 *   const t = await createTestApp(); const shop = await t.createShop('scale');
 *   const res = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { database?: DatabaseHandle; now?: () => Date; logDestination?: DestinationStream; compress?: Compressor } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const redisUrl = testRedisUrl();
  const config = loadConfig({
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
  const ctx = await createAppContext(config, {
    database,
    logger: createLogger(config, options.logDestination),
    ...(options.now ? { now: options.now } : {}),
    ...(options.compress ? { compress: options.compress } : {}),
  });
  const app = await buildApp(ctx);
  await app.ready();

  const api: TestApp['api'] = (shop, opts) =>
    app.inject({
      ...opts,
      headers: { authorization: `Bearer ${typeof shop === 'string' ? shop : shop.key}`, ...opts.headers },
    });
  const admin: TestApp['admin'] = (opts) =>
    app.inject({ ...opts, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...opts.headers } });

  return {
    app,
    ctx,
    config,
    api,
    admin,
    async createShop(plan = 'scale', extra = {}) {
      domainCounter += 1;
      const created = await admin({
        method: 'POST',
        url: '/admin/v1/shops',
        payload: { domain: `shop-${process.pid}-${domainCounter}-${Date.now()}.example.com`, plan, ...extra },
      });
      if (created.statusCode !== 201) throw new Error(`shop creation failed: ${created.body}`);
      const { shop } = created.json() as { shop: { id: string } };
      const keyRes = await admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/api-keys`, payload: { name: 'test' } });
      if (keyRes.statusCode !== 201) throw new Error(`key creation failed: ${keyRes.body}`);
      return { id: shop.id, key: (keyRes.json() as { key: string }).key, plan };
    },
    async close() {
      await app.close();
      await ctx.close();
      await database.close();
    },
  };
}

/**
 * The app with one Scale shop, for a file whose tests share both.
 *
 * @example
 *   beforeAll(async () => ({ t, shop } = await createTestAppWithShop()));
 */
export async function createTestAppWithShop(env: Record<string, string> = {}): Promise<{ t: TestApp; shop: TestShop }> {
  const t = await createTestApp(env);
  return { t, shop: await t.createShop('scale') };
}
