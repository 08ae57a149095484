import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DEFAULT_PLAN_CAPS } from '../../src/shops/plans.ts';

describe('loadConfig', () => {
  it('applies CONTRACT defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      pgliteSharedBuffers: undefined,
      databaseUrl: undefined,
      redisUrl: undefined,
      redisClusterNodes: undefined,
      adminToken: undefined,
      logLevel: 'info',
      planCaps: DEFAULT_PLAN_CAPS,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', ADMIN_TOKEN: '' })).toMatchObject({ port: 3000, adminToken: undefined });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/gcrs',
      PGLITE_SHARED_BUFFERS: '64MB',
      DATABASE_URL: 'postgres://u@db:5432/gcrs',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_TOKEN: 'a-long-enough-admin-token',
      LOG_LEVEL: 'warn',
      PLAN_CAPS: '{"free":{"campaigns":5}}',
    });
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: '/var/lib/gcrs', pgliteSharedBuffers: '64MB', logLevel: 'warn' });
    expect(config.planCaps.free).toEqual({ campaigns: 5, rules: 10, activeCampaigns: 1 });
    expect(config.planCaps.scale).toEqual(DEFAULT_PLAN_CAPS.scale);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['REDIS_CLUSTER_NODES', 'redis://10.0.0.5:7000'],
    ['REDIS_CLUSTER_NODES', '10.0.0.5'],
    ['REDIS_CLUSTER_NODES', '10.0.0.5:7000,,10.0.0.6:7000'],
    ['REDIS_CLUSTER_NODES', '10.0.0.5:70000'],
    ['REDIS_CLUSTER_NODES', '::1:7000'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_TOKEN', 'short'],
    ['PLAN_CAPS', '{nope'],
    ['PLAN_CAPS', '{"gold":{}}'],
    ['RATE_LIMIT_SCALE', '-1'],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['REDIS_TIMEOUT_MS', 'soon'],
    ['PGLITE_SHARED_BUFFERS', '32'],
    ['PGLITE_SHARED_BUFFERS', '1TB; DROP'],
    ['RULES_CACHE_MAX_BYTES', '256MB'],
    ['RULES_CACHE_MAX_BYTES', '1.5'],
    ['RULES_CACHE_MAX_BYTES', '1000'],
  ])('stops on a bad %s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('defaults the slow-client and Redis timeouts, and keeps headers within the request timeout', () => {
    expect(loadConfig({})).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      connectionTimeoutMs: 120_000,
      keepAliveTimeoutMs: 72_000,
      redisTimeoutMs: 250,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(/HEADERS_TIMEOUT_MS/);
  });

  it('bounds the rules cache by bytes, 512 MiB unless RULES_CACHE_MAX_BYTES says otherwise', () => {
    expect(loadConfig({}).rulesCacheMaxBytes).toBe(536_870_912);
    expect(loadConfig({ RULES_CACHE_MAX_BYTES: '1048576' }).rulesCacheMaxBytes).toBe(1_048_576);
  });

  it('reads the platform app credentials, with PLATFORM_WEBHOOK_SECRET as an alias of the secret', () => {
    expect(loadConfig({})).toMatchObject({ platformAppKey: undefined, platformAppSecret: undefined });
    expect(loadConfig({ PLATFORM_APP_KEY: 'client-id', PLATFORM_APP_SECRET: 's1' })).toMatchObject({ platformAppKey: 'client-id', platformAppSecret: 's1' });
    expect(loadConfig({ PLATFORM_WEBHOOK_SECRET: 's2' }).platformAppSecret).toBe('s2');
    expect(loadConfig({ PLATFORM_APP_SECRET: 's3', PLATFORM_WEBHOOK_SECRET: 's3' }).platformAppSecret).toBe('s3');
    expect(() => loadConfig({ PLATFORM_APP_SECRET: 's3', PLATFORM_WEBHOOK_SECRET: 's4' })).toThrow(/PLATFORM_WEBHOOK_SECRET: is an alias/);
  });

  it('reads REDIS_CLUSTER_NODES as host:port seeds, and refuses it beside REDIS_URL', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.5:7000, cache-2.internal:7001,[::1]:7002' }).redisClusterNodes).toEqual([
      { host: '10.0.0.5', port: 7000 },
      { host: 'cache-2.internal', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: '10.0.0.5:7000' })).toThrow(
      /REDIS_CLUSTER_NODES: is set together with REDIS_URL/,
    );
    // An empty REDIS_URL is unset, as every variable: the tests' way to switch the shared Redis off.
    expect(loadConfig({ REDIS_URL: '', REDIS_CLUSTER_NODES: '10.0.0.5:7000' })).toMatchObject({ redisUrl: undefined });
  });
});
