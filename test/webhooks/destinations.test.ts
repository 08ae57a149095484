/**
 * Issue 20 item 2, at save: a webhook endpoint may not point into the operator's network.
 * Every textual form of a local address, and every local name, is refused with a 400 through
 * the operator's admin API and through a merchant's own session in the admin app; the
 * operator's WEBHOOK_ALLOWED_HOSTS lets chosen hosts through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/error-body.ts';
import { openLoginLink } from '../support/login-link.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

// Each is refused without the allow-list; the comment says what it is once parsed.
const LOCAL_URLS = [
  'http://127.0.0.1/hook',
  'http://localhost/hook',
  'http://localhost./hook', // the same name, fully qualified
  'http://app.localhost/hook',
  'http://0.0.0.0/hook',
  'http://0/hook', // 0.0.0.0
  'http://2130706433/hook', // decimal 127.0.0.1
  'http://0x7f000001/hook', // hex
  'http://0177.0.0.1/hook', // octal
  'http://127.1/hook', // short
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[::ffff:127.0.0.1]/hook', // IPv4-mapped IPv6
  'http://[::ffff:a9fe:a9fe]/latest/meta-data', // 169.254.169.254, mapped
  'http://[::7f00:1]/hook', // IPv4-compatible
  'http://[64:ff9b::7f00:1]/hook', // NAT64 of 127.0.0.1
  'http://169.254.169.254/latest/meta-data',
  'http://[fe80::1]/hook',
  'http://10.0.0.1/hook',
  'http://172.16.5.4/hook',
  'http://192.168.1.1/hook',
  'http://100.64.0.1/hook', // carrier-grade NAT
  'http://[fd00::1]/hook',
  'http://224.0.0.1/hook', // multicast
  'http://[ff02::1]/hook',
  'http://255.255.255.255/hook',
  'http://240.0.0.1/hook', // reserved
  'http://192.0.2.10/hook', // documentation
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://printer.local/hook',
  'https://router.home.arpa/hook',
  'http://intranet/hook', // one label: only a local resolver answers it
];

const PUBLIC_URLS = ['https://hooks.example.com/gcrs', 'http://93.184.216.34:8080/hook', 'https://[2606:4700::1111]/hook'];

type Surface = { name: string; create(shop: TestShop, url: string): ReturnType<TestApp['admin']>; list(shop: TestShop): Promise<Array<{ url: string }>> };

/** The admin token's route and the merchant session's route: one route table, two mounts. */
function surfaces(t: TestApp): Surface[] {
  const sessions = new Map<string, Record<string, string>>();
  const sessionHeaders = async (shop: TestShop) => {
    const known = sessions.get(shop.id);
    if (known) return known;
    const link = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/login-links` });
    const opened = await openLoginLink(t.app, (link.json() as { url: string }).url);
    const cookie = String(opened.headers['set-cookie']).split(';')[0] ?? '';
    const session = await t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } });
    const headers = { cookie, 'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken };
    sessions.set(shop.id, headers);
    return headers;
  };
  return [
    {
      name: 'admin API',
      create: (shop, url) => t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url } }),
      list: async (shop) => ((await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-endpoints` })).json() as { endpoints: Array<{ url: string }> }).endpoints,
    },
    {
      name: 'merchant session',
      create: async (shop, url) => t.app.inject({ method: 'POST', url: '/app/api/v1/webhook-endpoints', headers: await sessionHeaders(shop), payload: { url } }),
      list: async (shop) =>
        ((await t.app.inject({ method: 'GET', url: '/app/api/v1/webhook-endpoints', headers: await sessionHeaders(shop) })).json() as { endpoints: Array<{ url: string }> })
          .endpoints,
    },
  ];
}

describe('without WEBHOOK_ALLOWED_HOSTS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(['admin API', 'merchant session'])('refuses every local form with a 400 naming the url, through the %s, and stores none', async (name) => {
    const surface = surfaces(t).find((s) => s.name === name) as Surface;
    const shop = await t.createShop('scale');
    for (const url of LOCAL_URLS) {
      const res = await surface.create(shop, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual(errorBody('Invalid request body', 'validation', { issue: expect.stringMatching(/webhooks may not reach/), path: ['url'] }));
    }
    expect(await surface.list(shop)).toEqual([]);
  });

  it('says what the address is, in its plain form, and how the operator may allow it', async () => {
    const shop = await t.createShop('scale');
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: 'http://0x7f000001:8080/x' } });
    expect((res.json() as { issue: string }).issue).toBe(
      '127.0.0.1 is a loopback address, which webhooks may not reach (the operator may allow it: WEBHOOK_ALLOWED_HOSTS)',
    );
  });

  it.each(['admin API', 'merchant session'])('takes public hosts through the %s, each shop seeing only its own', async (name) => {
    const surface = surfaces(t).find((s) => s.name === name) as Surface;
    const [shop, other] = [await t.createShop('scale'), await t.createShop('scale')];
    for (const url of PUBLIC_URLS) expect((await surface.create(shop, url)).statusCode, url).toBe(201);
    expect((await surface.list(shop)).map((e) => e.url)).toEqual(PUBLIC_URLS);
    expect(await surface.list(other)).toEqual([]);
  });
});

describe('with WEBHOOK_ALLOWED_HOSTS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.0/8, localhost, receiver.internal, fd00::/8' });
  });
  afterAll(() => t.close());

  it.each(['admin API', 'merchant session'])('takes the hosts and ranges listed, in any form, through the %s', async (name) => {
    const surface = surfaces(t).find((s) => s.name === name) as Surface;
    const shop = await t.createShop('scale');
    const allowed = ['http://127.0.0.1:9000/hook', 'http://2130706433/hook', 'http://[::ffff:127.0.0.2]/hook', 'http://localhost:9000/hook', 'http://receiver.internal/hook', 'http://[fd12::1]/hook'];
    for (const url of allowed) expect((await surface.create(shop, url)).statusCode, url).toBe(201);
  });

  it.each(['admin API', 'merchant session'])('still refuses what the list does not name, through the %s', async (name) => {
    const surface = surfaces(t).find((s) => s.name === name) as Surface;
    const shop = await t.createShop('scale');
    for (const url of ['http://[::1]/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/', 'https://metadata.google.internal/', 'http://other.localhost/']) {
      const res = await surface.create(shop, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'validation', path: ['url'] });
    }
    expect(await surface.list(shop)).toEqual([]);
  });
});
