/**
 * shopify.app.toml and shopify.web.toml (CONTRACT part three "App configuration";
 * docs/app-configuration.md), read with the TOML parser the platform's CLI uses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readToml } from '../../scripts/app-config.ts';
import { serviceEnv } from '../../scripts/shopify-dev.ts';
import { ADMIN_API_VERSION } from '../../src/platform/admin-discount-port.ts';
import { PLATFORM_WEBHOOKS_PATH } from '../../src/platform-webhooks/route.ts';
import { PLATFORM_TOPICS } from '../../src/platform-webhooks/topics.ts';
import { APP_PROXY_PREFIX } from '../../src/storefront/mount.ts';

type Subscription = { topics?: string[]; compliance_topics?: string[]; uri: string };
type AppToml = {
  client_id: string;
  name: string;
  application_url: string;
  embedded: boolean;
  access_scopes: { scopes: string; use_legacy_install_flow?: boolean };
  webhooks: { api_version: string; subscriptions: Subscription[] };
  app_proxy: { url: string; prefix: string; subpath: string };
};

const app = readToml(join(ROOT, 'shopify.app.toml')) as unknown as AppToml;
const web = readToml(join(ROOT, 'shopify.web.toml')) as unknown as { roles: string[]; webhooks_path: string; commands: { dev: string } };
const origin = new URL(app.application_url).origin;

/** The topics of CONTRACT "Platform webhooks", "Refunds and repairs" and billing. */
const CONTRACT_TOPICS = [
  'orders/paid',
  'products/create',
  'products/update',
  'products/delete',
  'inventory_levels/update',
  'app/uninstalled',
  'orders/cancelled',
  'refunds/create',
  'app_subscriptions/update',
];
const COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'];

/** The scopes of docs/app-configuration.md's "Access scopes" table (first column). */
function documentedScopes(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/app-configuration.md'), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('Access scopes')) ?? '';
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1] ?? '');
}

describe('shopify.app.toml', () => {
  it('is the embedded app at {PUBLIC_URL}/app/, client_id left to `shopify app config link`', () => {
    expect(app.client_id).toBe('');
    expect(app.name).toBe('Gift with purchase');
    expect(app.embedded).toBe(true);
    expect(app.application_url).toBe(`${origin}/app/`);
    expect(new URL(app.application_url).protocol).toBe('https:');
  });

  it('subscribes every topic the platform webhook route accepts, each once, at the pinned API version', () => {
    const topics = app.webhooks.subscriptions.flatMap((s) => s.topics ?? []);
    const compliance = app.webhooks.subscriptions.flatMap((s) => s.compliance_topics ?? []);
    expect(app.webhooks.api_version).toBe(ADMIN_API_VERSION);
    for (const topic of PLATFORM_TOPICS.keys()) expect([...topics, ...compliance]).toContain(topic);
    expect([...topics].sort()).toEqual([...CONTRACT_TOPICS].sort());
    expect(new Set(topics).size).toBe(topics.length);
  });

  it('subscribes the three compliance topics', () => {
    expect(app.webhooks.subscriptions.flatMap((s) => s.compliance_topics ?? []).sort()).toEqual([...COMPLIANCE_TOPICS].sort());
  });

  it('sends every webhook to the service route, by an absolute URL (a relative uri would resolve under /app/)', () => {
    for (const subscription of app.webhooks.subscriptions) expect(subscription.uri).toBe(`${origin}${PLATFORM_WEBHOOKS_PATH}`);
    expect(web.webhooks_path).toBe(PLATFORM_WEBHOOKS_PATH);
  });

  it('declares the app proxy: /apps/gifts to {PUBLIC_URL}/proxy', () => {
    expect(app.app_proxy).toEqual({ url: `${origin}${APP_PROXY_PREFIX}`, prefix: 'apps', subpath: 'gifts' });
  });

  it('asks exactly the documented scopes, for a managed install', () => {
    const scopes = app.access_scopes.scopes.split(',').map((scope) => scope.trim());
    expect(documentedScopes().length).toBeGreaterThan(0);
    expect([...scopes].sort()).toEqual([...documentedScopes()].sort());
    expect(app.access_scopes.use_legacy_install_flow).toBe(false);
  });
});

describe('shopify.web.toml', () => {
  it('starts the service, front end and back end, through an npm script that exists', () => {
    expect([...web.roles].sort()).toEqual(['backend', 'frontend']);
    const script = /^npm run ([\w:-]+)$/.exec(web.commands.dev)?.[1];
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(script).toBeDefined();
    expect(scripts[script ?? '']).toContain('scripts/shopify-dev.ts');
  });

  it('maps the environment the CLI gives onto the service settings', () => {
    const cli = { SHOPIFY_API_KEY: 'key', SHOPIFY_API_SECRET: 'secret', HOST: 'https://tunnel.example.com', APP_URL: 'https://tunnel.example.com', PORT: '51234' };
    expect(serviceEnv(cli)).toMatchObject({
      PLATFORM_APP_KEY: 'key',
      PLATFORM_APP_SECRET: 'secret',
      PUBLIC_URL: 'https://tunnel.example.com',
      PORT: '51234',
      HOST: '127.0.0.1',
    });
    // Without APP_URL, HOST (the CLI's public URL) is the public URL; an explicit setting wins.
    expect(serviceEnv({ HOST: 'https://t.example.com', PUBLIC_URL: 'https://gifts.example.org' })).toMatchObject({ PUBLIC_URL: 'https://gifts.example.org', HOST: '127.0.0.1' });
    expect(serviceEnv({ HOST: 'https://t.example.com' }).PUBLIC_URL).toBe('https://t.example.com');
  });
});
