/**
 * The one wiring root: every service the handlers use is built here from the Config and
 * handed down explicitly (no container, no global db import).
 */
import pino from 'pino';
import type { DestinationStream, LogFn, Logger, LoggerOptions } from 'pino';
import { createAdminShopResolver } from './admin/admin-auth.ts';
import { createApiKeyResolver } from './api-keys/api-key-auth.ts';
import { createInvalidationBus } from './cache/create-bus.ts';
import { createApiKeyVerifier } from './api-keys/key-cache.ts';
import type { ApiKeyVerifier } from './api-keys/key-cache.ts';
import type { InvalidationBus } from './cache/invalidation-bus.ts';
import { createLocalShopVersions, createNoShopVersions, createRedisShopVersions } from './cache/shop-versions.ts';
import type { ShopVersions } from './cache/shop-versions.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import type { Database, DatabaseHandle } from './db/database.ts';
import type { StartedPglite } from './db/pglite-start.ts';
import type { ShopResolver, ShopScopedRoute } from './http/shop-routes.ts';
import { createInstaller } from './install/installer.ts';
import type { Installer } from './install/installer.ts';
import { createAppSessionResolver } from './merchant-admin/auth.ts';
import type { DiscountPort } from './platform/discount-port.ts';
import { createShopDiscountPort } from './platform/shop-discount-port.ts';
import { createFailoverRateLimiter } from './rate-limit/failover.ts';
import type { RateLimiter } from './rate-limit/limiter.ts';
import { createMemoryRateLimiter } from './rate-limit/memory.ts';
import { createRedisRateLimiter } from './rate-limit/redis.ts';
import { createRedisConnection, redisTargetOf } from './redis/connection.ts';
import type { RedisClient } from './redis/connection.ts';
import { createScrubber, REDACTED } from './logging/scrub.ts';
import { createRulesCache } from './rules/rules-cache.ts';
import type { RulesCache } from './rules/rules-cache.ts';
import type { Compressor } from './rules/representations.ts';
import { createStorefrontAuth } from './storefront/auth-cache.ts';
import type { StorefrontAuth } from './storefront/auth-cache.ts';
import { createStorefrontSeen } from './onboarding/storefront-seen.ts';
import { createAppProxyResolver } from './storefront/proxy-auth.ts';
import { createStorefrontTokenResolver } from './storefront/token-auth.ts';

/** How each mount of the route table finds its shop (http/shop-routes.ts `resolveShop`). */
export type ShopResolvers = {
  /** `/api/v1`: a Bearer API key, the plan, the key's rate limit (api-keys/api-key-auth.ts). */
  apiKey: ShopResolver;
  /** `/admin/v1/shops/:shopId`: the shop of the path (admin/admin-auth.ts). */
  admin: ShopResolver<ShopScopedRoute>;
  /** `/app/api/v1`: the merchant admin's session (merchant-admin/auth.ts). */
  appSession: ShopResolver<ShopScopedRoute>;
  /** `/proxy`: the app proxy's signature; absent without PLATFORM_APP_SECRET (storefront/proxy-auth.ts). */
  appProxy: ShopResolver<ShopScopedRoute> | undefined;
  /** `/storefront/v1`: a publishable token (storefront/token-auth.ts). */
  storefrontToken: ShopResolver<ShopScopedRoute>;
};

export type AppContext = {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  db: Database;
  /** Present when REDIS_URL or REDIS_CLUSTER_NODES is set; shared by limiter and cache invalidation. */
  redis: RedisClient | undefined;
  limiter: RateLimiter;
  /** Tells every instance to drop a cached entry (Redis pub/sub, LISTEN/NOTIFY or in process). */
  invalidation: InvalidationBus;
  /** Each shop's shared version; bump it after a write commits, before answering. */
  shopVersions: ShopVersions;
  /** Verifies API keys; from memory while the shop's version says so (api-keys/key-cache.ts). */
  apiKeys: ApiKeyVerifier;
  /** Storefront tokens and app-proxy shop domains, cached like API keys (storefront/auth-cache.ts). */
  storefrontAuth: StorefrontAuth;
  /** GET /rules payloads per shop; call rulesCache.invalidate(shopId) after a write commits. */
  rulesCache: RulesCache;
  /** The clock schedule windows are judged by (the rules cache's too); tests inject one. */
  now: () => Date;
  /** The automatic discount on the platform, or its recording per shop without a connection (the outbox's discount syncs). */
  discountPort: DiscountPort;
  /** Installs a shop on its first session token or embedded load; absent without the app's key and secret (docs/install.md). */
  installer: Installer | undefined;
  resolvers: ShopResolvers;
  /** Releases everything in reverse order of creation. */
  close(): Promise<void>;
};

export type ContextOverrides = {
  database?: DatabaseHandle;
  /** An embedded database whose start src/main.ts began before loading the server. */
  startedPglite?: Promise<StartedPglite> | undefined;
  logger?: Logger;
  now?: () => Date;
  /** The rules cache's compressor (tests hold one to watch requests go on meanwhile). */
  compress?: Compressor;
};

/**
 * The service's logger. Every level goes through the scrubber (logging/scrub.ts): secrets are
 * masked in messages, fields and errors before pino writes anything, so a trace-level run
 * shows no admin token, API key, webhook secret or key hash. `destination` is for tests.
 *
 * @example
 *   const logger = createLogger(config); logger.info({ err }, 'failed'); // err.params never logged
 */
export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'adminToken' | 'platformAppSecret'>>,
  destination?: DestinationStream,
): Logger {
  const scrubber = createScrubber([config.adminToken, config.platformAppSecret]);
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'key'], censor: REDACTED },
    serializers: {
      err: (error: unknown) => scrubber.value(error),
      // Fastify's request summary, with the URL scrubbed (a token in a query string).
      req: (request: { method?: string; url?: string; host?: string; ip?: string }) => ({
        method: request.method,
        url: request.url === undefined ? undefined : scrubber.text(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
    hooks: {
      logMethod(args, method) {
        const [first, ...rest] = args;
        const tail = rest.map((arg) => scrubber.value(arg));
        if (first instanceof Error) {
          // pino's own shape for logger.error(err): the error under `err`, its message as msg.
          const message = tail.length > 0 ? tail : [scrubber.text(first.message)];
          method.apply(this, [{ err: scrubber.value(first) }, ...message] as Parameters<LogFn>);
          return;
        }
        method.apply(this, [scrubber.value(first), ...tail] as Parameters<LogFn>);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Builds the services for `config`. Tests pass their own database handle.
 *
 * @example
 *   const ctx = await createAppContext(loadConfig());
 */
export async function createAppContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config);
  // The server's start (an open already under way) gets its handle before the database is open
  // and migrated, and builds its routes meanwhile; it awaits `database.ready` before listening.
  const database =
    overrides.database ?? (await openDatabase(config, { startedPglite: overrides.startedPglite, deferReady: overrides.startedPglite !== undefined }));
  const redisTarget = redisTargetOf(config);
  const redis = redisTarget ? await createRedisConnection(redisTarget, { timeoutMs: config.redisTimeoutMs, logger }) : undefined;
  // Redis down: fail open to this instance's window (rate-limit/failover.ts says why).
  const limiter = redis
    ? createFailoverRateLimiter({
        primary: createRedisRateLimiter(redis),
        fallback: createMemoryRateLimiter(),
        isAvailable: () => redis.status === 'ready',
        logger,
      })
    : createMemoryRateLimiter();
  const invalidation = await createInvalidationBus({ redis, pool: database.pool, logger });
  const now = overrides.now ?? (() => new Date());
  const rulesCache = createRulesCache({ db: database.db, bus: invalidation, now, maxBytes: config.rulesCacheMaxBytes, compress: overrides.compress });
  // Redis first, as the bus; PostgreSQL alone has no synchronously read shared place.
  const shopVersions = redis
    ? createRedisShopVersions(redis, logger)
    : database.pool
      ? createNoShopVersions()
      : createLocalShopVersions();
  const apiKeys = createApiKeyVerifier({ db: database.db, versions: shopVersions });
  const storefrontAuth = createStorefrontAuth({ db: database.db, bus: invalidation });
  const discountPort = createShopDiscountPort({
    db: database.db,
    logger,
    secret: config.platformAppSecret,
    functionId: config.platformDiscountFunctionId,
    adminApiUrl: config.platformAdminApiUrl,
  });
  const { platformAppKey: appKey, platformAppSecret: appSecret } = config;
  const installer =
    appKey === undefined || appSecret === undefined
      ? undefined
      : createInstaller({
          db: database.db,
          rulesCache,
          shopVersions,
          invalidation,
          logger,
          appKey,
          appSecret,
          adminApiUrl: config.platformAdminApiUrl,
          functionId: config.platformDiscountFunctionId,
          now,
        });
  const limits = { limiter, rateLimitScale: config.rateLimitScale };
  const resolvers: ShopResolvers = {
    apiKey: createApiKeyResolver({ verifier: apiKeys, ...limits }),
    admin: createAdminShopResolver({ db: database.db }),
    appSession: createAppSessionResolver({ db: database.db, ...limits, appKey, appSecret, publicUrl: config.publicUrl, now, ...(installer ? { installer } : {}) }),
    appProxy: appSecret === undefined ? undefined : createAppProxyResolver({ ...limits, auth: storefrontAuth, secret: appSecret, now, seen: createStorefrontSeen(database.db, now) }),
    storefrontToken: createStorefrontTokenResolver({ ...limits, auth: storefrontAuth }),
  };
  return {
    config,
    logger,
    database,
    db: database.db,
    redis,
    limiter,
    invalidation,
    rulesCache,
    shopVersions,
    apiKeys,
    storefrontAuth,
    now,
    discountPort,
    installer,
    resolvers,
    async close() {
      rulesCache.close();
      apiKeys.close();
      storefrontAuth.close();
      shopVersions.close();
      await invalidation.close();
      await limiter.close();
      // quit() fails at once while disconnected; disconnect() then stops the reconnect loop.
      if (redis) await redis.quit().catch(() => redis.disconnect());
      if (!overrides.database) await database.close();
    },
  };
}
