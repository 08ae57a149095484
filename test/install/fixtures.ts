/** The install tests' app, stand-in platform, session tokens and dispatcher (docs/install.md). */
import { createHmac } from 'node:crypto';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import type { CatalogImportOptions } from '../../src/install/catalog-import.ts';
import { signSessionToken } from '../../src/merchant-admin/session-token.ts';
import { createShopDiscountPort } from '../../src/platform/shop-discount-port.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { STANDIN_APP_KEY, startTestPlatform } from '../support/platform-standin.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

export const SECRET = 'platform-app-secret-for-install-tests';
export const FUNCTION_ID = 'fn-gifts-install';

const nowS = () => Math.floor(Date.now() / 1000);

/** A session token as the platform signs it for `domain`. */
export const sessionToken = (domain: string, overrides: Record<string, unknown> = {}, secret = SECRET, appKey = STANDIN_APP_KEY) =>
  signSessionToken({ iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: appKey, sub: '42', exp: nowS() + 60, nbf: nowS() - 1, iat: nowS() - 1, jti: `${Math.random()}`, ...overrides }, secret);

export type InstallWorld = { t: TestApp; platform: PlatformStandin; ahead: { ms: number } };

/** The app pointed at a fresh stand-in platform. */
export async function createInstallWorld(env: Record<string, string> = {}): Promise<InstallWorld> {
  const platform = await startTestPlatform(SECRET);
  const t = await createTestApp({
    PLATFORM_APP_KEY: STANDIN_APP_KEY,
    PLATFORM_APP_SECRET: SECRET,
    PLATFORM_ADMIN_API_URL: platform.url,
    PLATFORM_DISCOUNT_FUNCTION_ID: FUNCTION_ID,
    ...env,
  });
  return { t, platform, ahead: { ms: 0 } };
}

/** What the unit of work tells after each catalog page: the app's own caches. */
export const caches = (t: TestApp) => ({ rulesCache: t.ctx.rulesCache, shopVersions: t.ctx.shopVersions, invalidation: t.ctx.invalidation });

/** A dispatcher as the service runs it, its clock `ahead.ms` in the future (to make retries due). */
export function dispatcher(world: InstallWorld, importOptions: Partial<CatalogImportOptions> = {}) {
  const { t } = world;
  const { config } = t.ctx;
  const port = createShopDiscountPort({ db: t.ctx.db, logger: t.ctx.logger, secret: config.platformAppSecret, functionId: config.platformDiscountFunctionId, adminApiUrl: config.platformAdminApiUrl });
  const now = () => new Date(Date.now() + world.ahead.ms);
  return createOutboxDispatcher({
    db: t.ctx.db,
    logger: t.ctx.logger,
    jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port, catalogImport: { ...caches(t), secret: config.platformAppSecret, adminApiUrl: config.platformAdminApiUrl, now, ...importOptions } }),
    webhooks: createWebhookSender(),
    pollMs: 20,
    now,
  });
}

/** Runs the dispatcher until nothing due is left (at most `rounds` batches). */
export async function drain(world: InstallWorld, importOptions: Partial<CatalogImportOptions> = {}, rounds = 50): Promise<void> {
  const worker = dispatcher(world, importOptions);
  for (let round = 0; round < rounds; round += 1) if ((await worker.runOnce()).claimed === 0) return;
}

/** A session-token request of the merchant admin. */
export const asMerchant = (world: InstallWorld, token: string, url = '/app/api/v1/session') =>
  world.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

/** The embedded first load the platform opens: its query signed (`hmac`) as the platform signs it. */
export function embeddedLoad(world: InstallWorld, domain: string, token: string) {
  const params: Record<string, string> = {
    embedded: '1',
    host: Buffer.from(`admin.shopify.com/store/${domain.split('.')[0]}`).toString('base64url'),
    id_token: token,
    shop: domain,
    timestamp: String(nowS()),
  };
  const message = Object.keys(params).sort().map((name) => `${name}=${params[name]}`).join('&');
  const hmac = createHmac('sha256', SECRET).update(message).digest('hex');
  return world.t.app.inject({ method: 'GET', url: `/app/?${new URLSearchParams({ ...params, hmac }).toString()}` });
}
