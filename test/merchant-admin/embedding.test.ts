/**
 * The page's framing policy and App Bridge (docs/merchant-admin.md "Embedded"), through the
 * app: a load signed as the platform's admin signs it (hex HMAC-SHA256 of the sorted
 * `name=value` pairs joined by `&`, keyed with the app secret) for a shop of this service may be
 * framed by that shop's admin and loads App Bridge; every other load, and every other HTML page,
 * may be framed by no one.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const APP_KEY = 'embed-app-key';
const APP_SECRET = 'embed-app-secret-0123456789';
const NONE = "frame-ancestors 'none';";

let t: TestApp;
let unique = 0;
const domainA = `embed-a-${process.pid}-${Date.now()}.myshopify.com`;
const domainB = `embed-b-${process.pid}-${Date.now()}.myshopify.com`;

/** The query the platform's admin opens an embedded app with, signed with `secret`. */
function adminLoad(shop: string, overrides: Record<string, string> = {}, secret = APP_SECRET): string {
  unique += 1;
  const params: Record<string, string> = {
    embedded: '1',
    host: Buffer.from(`admin.shopify.com/store/${shop.split('.')[0]}`).toString('base64url'),
    locale: 'en',
    session: `session-${unique}`,
    shop,
    timestamp: String(Math.floor(Date.now() / 1000)),
    ...overrides,
  };
  const message = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  const hmac = createHmac('sha256', secret).update(message).digest('hex');
  return new URLSearchParams({ ...params, hmac }).toString();
}

const load = (query: string, app = t) => app.app.inject({ method: 'GET', url: `/app/?${query}` });

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_KEY: APP_KEY, PLATFORM_APP_SECRET: APP_SECRET });
  await t.createShop('free', { domain: domainA });
  await t.createShop('scale', { domain: domainB });
}, 60_000);
afterAll(() => t.close());

describe('an admin load signed by the platform', () => {
  it('may be framed by that shop and its admin only, and loads App Bridge with the app key', async () => {
    const res = await load(adminLoad(domainA));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(`frame-ancestors https://${domainA} https://admin.shopify.com;`);
    expect(res.body).toContain(`<meta name="shopify-api-key" content="${APP_KEY}">`);
    // App Bridge must come before the app's own script.
    const bridge = res.body.indexOf('https://cdn.shopify.com/shopifycloud/app-bridge.js');
    expect(bridge).toBeGreaterThan(0);
    expect(bridge).toBeLessThan(res.body.indexOf('type="module"'));
  }, 60_000);

  it("names the other shop for the other shop's load (never the first's)", async () => {
    const res = await load(adminLoad(domainB));
    expect(res.headers['content-security-policy']).toBe(`frame-ancestors https://${domainB} https://admin.shopify.com;`);
  });
});

describe('every other load is framed by no one and has no App Bridge', () => {
  const cases: Array<[string, () => string]> = [
    ['no query (standalone, after a login link)', () => ''],
    ['a shop without hmac', () => `shop=${domainA}`],
    ['a forged hmac (another secret)', () => adminLoad(domainA, {}, 'another-secret')],
    ['a shop changed after signing', () => adminLoad(domainA).replace(encodeURIComponent(domainA), encodeURIComponent(domainB))],
    ['a timestamp 10 minutes old', () => adminLoad(domainA, { timestamp: String(Math.floor(Date.now() / 1000) - 600) })],
    ['a shop that is not a platform shop domain', () => adminLoad('evil.example.com')],
    ['a platform domain that is not a shop of this service', () => adminLoad(`unknown-${process.pid}.myshopify.com`)],
    ['a repeated parameter', () => `${adminLoad(domainA)}&shop=${domainB}`],
  ];
  it.each(cases)('%s', async (_name, query) => {
    const res = await load(query());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(NONE);
    expect(res.body).not.toContain('app-bridge.js');
    expect(res.body).not.toContain('shopify-api-key');
  });

  it('a login link page (valid or not) is framed by no one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/login?token=gcl_nothing' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-security-policy']).toBe(NONE);
  });
});

describe('without the app credentials', () => {
  it('even a load signed with the would-be secret is framed by no one', async () => {
    const bare = await createTestApp();
    try {
      await bare.createShop('free', { domain: `embed-c-${process.pid}-${Date.now()}.myshopify.com` });
      const res = await load(adminLoad(domainA), bare);
      expect(res.headers['content-security-policy']).toBe(NONE);
      expect(res.body).not.toContain('app-bridge.js');
    } finally {
      await bare.close();
    }
  }, 60_000);
});
