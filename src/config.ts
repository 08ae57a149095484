/**
 * The service's configuration, parsed once from the environment (CONTRACT "Running it").
 * Nothing else reads `process.env`: the rest of the code receives this typed object.
 */
import { z } from 'zod';
import { planPricesSchema } from './billing/prices.ts';
import type { PlanPrices } from './billing/prices.ts';
import { mergePlanCaps, planCapsOverrideSchema } from './shops/plans.ts';
import type { PlanCaps } from './shops/plans.ts';
import { EMPTY_ALLOW_LIST, parseAllowList } from './webhooks/destination-policy.ts';
import type { DestinationAllowList } from './webhooks/destination-policy.ts';
import type { RedisClusterNode } from './redis/connection.ts';

const jsonText = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be JSON' });
    return z.NEVER;
  }
});

const port = z.coerce.number().int().min(0).max(65535);

/** One `host:port` seed of REDIS_CLUSTER_NODES (an IPv6 host in brackets: `[::1]:7000`). */
const CLUSTER_NODE = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):([0-9]{1,5})$/;

const clusterNodes = z.string().transform((text, ctx) => {
  const nodes: RedisClusterNode[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const match = CLUSTER_NODE.exec(entry);
    const nodePort = Number(match?.[3]);
    const host = match?.[1] ?? match?.[2];
    if (host === undefined || !(nodePort >= 1 && nodePort <= 65535)) {
      ctx.addIssue({ code: 'custom', message: `must be comma-separated host:port seeds of the cluster; got "${entry}"` });
      return z.NEVER;
    }
    nodes.push({ host, port: nodePort });
  }
  return nodes;
});
const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL's shared_buffers inside the embedded database (docs/performance.md "Start time and memory"). */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'must be a size such as 32MB')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * `off`: `npm start` always runs from source and builds no bundle. src/main.ts reads these two
   * before this parse (startup/server-bundle.ts); they are listed here so a typo is refused.
   */
  SERVER_BUNDLE: z.enum(['auto', 'off']).default('auto'),
  /** Where the prebuilt server bundle is kept, relative to the checkout. */
  SERVER_BUNDLE_DIR: z.string().min(1).default('node_modules/.cache/gcrs-server'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /**
   * Redis Cluster instead of one Redis (docs/operations.md "Redis Cluster"): a few of its nodes,
   * e.g. `10.0.0.5:7000,10.0.0.6:7000`; the rest are discovered from them.
   */
  REDIS_CLUSTER_NODES: clusterNodes.optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The service's public base URL (login links, the admin cookie's `Secure`); default http://localhost:PORT. */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest accepted request body; larger bodies get 413. */
  BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
  /**
   * Most bytes of signed request bodies (the platform's webhooks) held at once before their
   * signature is known; a body that does not fit waits, unread (docs/operations.md "Unsigned
   * request bodies").
   */
  UNVERIFIED_BODY_BYTES: positiveInt.default(16_777_216),
  /** Multiplies every per-minute rate limit (1 = SPEC's numbers); operators and benchmarks tune it. */
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Raw storefront events older than this are pruned; rollups are kept. */
  EVENT_RETENTION_DAYS: positiveInt.default(90),
  /** Finished outbox rows (delivered, failed, cancelled) and their attempt log are pruned after this. */
  OUTBOX_RETENTION_DAYS: positiveInt.default(7),
  /** CONTRACT "Platform app credentials": the app's API key (client id), the `aud` of session tokens. */
  PLATFORM_APP_KEY: z.string().min(1).optional(),
  /** The app's API secret: signs the platform's webhooks, app-proxy requests and session tokens. */
  PLATFORM_APP_SECRET: z.string().min(1).optional(),
  /** The older name of PLATFORM_APP_SECRET, still accepted (CONTRACT: "stays accepted as an alias"). */
  PLATFORM_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** The deployed gift-discount function's id (`shopify app deploy` prints it): needed to create a connected shop's discount. */
  PLATFORM_DISCOUNT_FUNCTION_ID: z.string().min(1).optional(),
  /**
   * Sends the Admin API calls of connected shops to this origin instead of `https://<shop domain>`
   * (path kept: `<url>/admin/api/<version>/graphql.json`): a fake endpoint for tests and development.
   */
  PLATFORM_ADMIN_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** What each paid plan costs through the platform's billing (docs/billing.md), e.g. {"growth":{"amount":"19.00","currencyCode":"USD"}}. */
  PLATFORM_BILLING_PLANS: jsonText.pipe(planPricesSchema).optional(),
  /** `true`: subscriptions are created with `test: true` (development stores, no charge). */
  PLATFORM_BILLING_TEST: z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).optional(),
  /** How often the outbox dispatcher looks for due work when idle. */
  OUTBOX_POLL_MS: positiveInt.default(1000),
  // Outbox slots per instance (docs/lifecycle-catalog-webhooks.md "Delivery"): webhook attempts in
  // flight at once, of which at most OUTBOX_ENDPOINT_CONCURRENCY for one endpoint, so a dead
  // receiver holds only its own slots; discount syncs have their own lane.
  OUTBOX_CONCURRENCY: positiveInt.default(20),
  OUTBOX_ENDPOINT_CONCURRENCY: positiveInt.default(2),
  OUTBOX_SYNC_CONCURRENCY: positiveInt.default(4),
  /**
   * Host names, addresses and CIDRs webhook endpoints may reach although they are local
   * (docs/operations.md "Webhook destinations"); unset: none, every local address is refused.
   */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseAllowList(text);
      if (parsed.ok) return parsed.allowList;
      ctx.addIssue({ code: 'custom', message: `must list host names, IP addresses or CIDRs, comma separated; cannot read ${parsed.bad.map((b) => JSON.stringify(b)).join(', ')}` });
      return z.NEVER;
    })
    .optional(),
  /** Overrides of the default plan caps, e.g. {"free":{"campaigns":5}}. */
  PLAN_CAPS: jsonText.pipe(planCapsOverrideSchema).optional(),
  // Slow clients (docs/operations.md "Timeouts"): a request must arrive whole within
  // REQUEST_TIMEOUT_MS and its headers within HEADERS_TIMEOUT_MS, or the server answers 408 and
  // closes; a socket silent for CONNECTION_TIMEOUT_MS is closed.
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  CONNECTION_TIMEOUT_MS: positiveInt.default(120_000),
  /** Idle keep-alive sockets; above the usual 60 s load balancer idle timeout, as Fastify's default. */
  KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(72_000),
  /** Longest wait for one Redis command before the request falls back to the memory window. */
  REDIS_TIMEOUT_MS: positiveInt.default(250),
  /** What the GET /rules cache may hold, in bytes (docs/performance.md "GET /rules for many shops"). */
  RULES_CACHE_MAX_BYTES: z.coerce
    .number({ error: 'must be a whole number of bytes, e.g. 536870912' })
    .int('must be a whole number of bytes, e.g. 536870912')
    .min(65_536, 'must be at least 65536 (64 KiB)')
    .default(536_870_912),
}).refine((env) => env.HEADERS_TIMEOUT_MS <= env.REQUEST_TIMEOUT_MS, {
  message: 'must not exceed REQUEST_TIMEOUT_MS',
  path: ['HEADERS_TIMEOUT_MS'],
}).refine((env) => env.REDIS_URL === undefined || env.REDIS_CLUSTER_NODES === undefined, {
  message: 'is set together with REDIS_URL: set REDIS_URL for one Redis, or REDIS_CLUSTER_NODES for a Redis Cluster, not both',
  path: ['REDIS_CLUSTER_NODES'],
}).refine(
  (env) => env.PLATFORM_APP_SECRET === undefined || env.PLATFORM_WEBHOOK_SECRET === undefined || env.PLATFORM_APP_SECRET === env.PLATFORM_WEBHOOK_SECRET,
  { message: 'is an alias of PLATFORM_APP_SECRET: set one of them, or both to the same value', path: ['PLATFORM_WEBHOOK_SECRET'] },
);

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** Undefined: the database module's default (32MB). */
  pgliteSharedBuffers: string | undefined;
  databaseUrl: string | undefined;
  /** REDIS_URL: one Redis (or a primary with replicas). */
  redisUrl: string | undefined;
  /** REDIS_CLUSTER_NODES: the seeds of a Redis Cluster; never set together with redisUrl. */
  redisClusterNodes: readonly RedisClusterNode[] | undefined;
  adminToken: string | undefined;
  /** PUBLIC_URL without a trailing slash, else `http://localhost:<port>`. */
  publicUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  unverifiedBodyBytes: number;
  rateLimitScale: number;
  eventRetentionDays: number;
  outboxRetentionDays: number;
  /** PLATFORM_APP_KEY. */
  platformAppKey: string | undefined;
  /** PLATFORM_APP_SECRET, else its alias PLATFORM_WEBHOOK_SECRET; without it the platform's routes answer 404. */
  platformAppSecret: string | undefined;
  /** PLATFORM_DISCOUNT_FUNCTION_ID. */
  platformDiscountFunctionId: string | undefined;
  /** PLATFORM_ADMIN_API_URL, without a trailing slash. */
  platformAdminApiUrl: string | undefined;
  /** PLATFORM_BILLING_PLANS; empty when unset (nothing is for sale). */
  billingPrices: PlanPrices;
  /** PLATFORM_BILLING_TEST. */
  billingTest: boolean;
  outboxPollMs: number;
  outboxConcurrency: number;
  outboxEndpointConcurrency: number;
  outboxSyncConcurrency: number;
  /** WEBHOOK_ALLOWED_HOSTS; empty when unset. */
  webhookAllowList: DestinationAllowList;
  planCaps: PlanCaps;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  connectionTimeoutMs: number;
  keepAliveTimeoutMs: number;
  redisTimeoutMs: number;
  /** RULES_CACHE_MAX_BYTES. */
  rulesCacheMaxBytes: number;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment into a Config, or throws a ConfigError naming every bad variable.
 * The process's own environment by default: this is the one module of src/ that reads
 * `process.env` (docs/architecture.md; the launcher's bundle switches aside).
 *
 * @example
 *   const config = loadConfig({ PORT: '8080' }); // config.port === 8080
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "unset", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisClusterNodes: e.REDIS_CLUSTER_NODES,
    adminToken: e.ADMIN_TOKEN,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    unverifiedBodyBytes: e.UNVERIFIED_BODY_BYTES,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    outboxRetentionDays: e.OUTBOX_RETENTION_DAYS,
    platformAppKey: e.PLATFORM_APP_KEY,
    platformAppSecret: e.PLATFORM_APP_SECRET ?? e.PLATFORM_WEBHOOK_SECRET,
    platformDiscountFunctionId: e.PLATFORM_DISCOUNT_FUNCTION_ID,
    platformAdminApiUrl: e.PLATFORM_ADMIN_API_URL?.replace(/\/+$/, ''),
    billingPrices: e.PLATFORM_BILLING_PLANS ?? {},
    billingTest: e.PLATFORM_BILLING_TEST === 'true' || e.PLATFORM_BILLING_TEST === '1',
    outboxPollMs: e.OUTBOX_POLL_MS,
    outboxConcurrency: e.OUTBOX_CONCURRENCY,
    outboxEndpointConcurrency: e.OUTBOX_ENDPOINT_CONCURRENCY,
    outboxSyncConcurrency: e.OUTBOX_SYNC_CONCURRENCY,
    webhookAllowList: e.WEBHOOK_ALLOWED_HOSTS ?? EMPTY_ALLOW_LIST,
    planCaps: mergePlanCaps(e.PLAN_CAPS),
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    connectionTimeoutMs: e.CONNECTION_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    rulesCacheMaxBytes: e.RULES_CACHE_MAX_BYTES,
  };
}
