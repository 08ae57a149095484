/**
 * The stand-in storefront without a browser: what the forwarded app-proxy request carries
 * (checked with the service's own verifier), and the AJAX Cart API's shapes for the encodings
 * and endpoints the page itself does not use.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStorefrontStandin } from '../../dev/storefront/server.ts';
import { verifyAppProxyQuery } from '../../src/platform/signatures.ts';
import type { StorefrontStandin } from '../../dev/storefront/server.ts';

type Seen = { method: string; url: URL; headers: IncomingHttpHeaders; body: string };

describe('stand-in storefront over HTTP', () => {
  let standin: StorefrontStandin;
  let upstream: ReturnType<typeof createServer>;
  const seen: Seen[] = [];
  const NOW = 1_800_000_000_000;

  beforeAll(async () => {
    // The app behind the proxy: records what arrives and answers like GET /rules would.
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: new URL(req.url ?? '/', 'http://app'), headers: req.headers, body: Buffer.concat(chunks).toString() });
        if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304, { etag: '"v1"' }).end();
        res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'cache-control': 'private, max-age=60', 'set-cookie': 'leak=1' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const serviceUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    standin = await startStorefrontStandin({ serviceUrl, appSecret: 'hush', now: () => NOW });
  });
  afterAll(async () => {
    await standin.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('forwards /apps/gifts/* to /proxy/* signed as the platform signs, with the logged-in customer', async () => {
    const login = await fetch(`${standin.url}/account/login?customer_id=501`, { redirect: 'manual' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const response = await fetch(`${standin.url}/apps/gifts/rules?extra=1`, { headers: { cookie, 'if-none-match': '"v0"' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(response.headers.get('cache-control')).toBe('private, max-age=60');
    expect(response.headers.get('set-cookie')).toBeNull();
    const request = seen.at(-1);
    expect(request?.url.pathname).toBe('/proxy/rules');
    const query = request?.url.searchParams ?? new URLSearchParams();
    expect(Object.fromEntries(query)).toEqual({
      extra: '1',
      shop: 'demo-gifts.myshopify.com',
      logged_in_customer_id: '501',
      path_prefix: '/apps/gifts',
      timestamp: String(NOW / 1000),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(verifyAppProxyQuery(query, 'hush', NOW / 1000)).toEqual({ valid: true, shop: 'demo-gifts.myshopify.com', customerId: '501', timestamp: NOW / 1000 });
    expect(verifyAppProxyQuery(query, 'not-the-secret', NOW / 1000)).toMatchObject({ valid: false, reason: 'bad_signature' });
    expect(request?.headers['if-none-match']).toBe('"v0"');
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('passes 304s through, and POST bodies with their method; an anonymous shopper has an empty customer id', async () => {
    const notModified = await fetch(`${standin.url}/apps/gifts/rules`, { headers: { 'if-none-match': '"v1"' } });
    expect(notModified.status).toBe(304);
    const body = JSON.stringify({ events: [{ type: 'gift_added' }] });
    await fetch(`${standin.url}/apps/gifts/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', body });
    expect(request?.url.pathname).toBe('/proxy/events');
    expect(request?.url.searchParams.get('logged_in_customer_id')).toBe('');
  });

  it('signs badly, with a stale timestamp or not at all when a test asks it to', async () => {
    standin.setProxySigning('bad-signature');
    await fetch(`${standin.url}/apps/gifts/rules`);
    const lastQuery = () => seen.at(-1)?.url.searchParams ?? new URLSearchParams();
    expect(verifyAppProxyQuery(lastQuery(), 'hush', NOW / 1000)).toEqual({ valid: false, reason: 'bad_signature' });
    standin.setProxySigning('stale-timestamp');
    await fetch(`${standin.url}/apps/gifts/rules`);
    expect(Number(lastQuery().get('timestamp'))).toBe(NOW / 1000 - 301);
    expect(verifyAppProxyQuery(lastQuery(), 'hush', NOW / 1000)).toEqual({ valid: false, reason: 'stale_timestamp' });
    standin.setProxySigning('unsigned');
    await fetch(`${standin.url}/apps/gifts/rules`);
    expect(verifyAppProxyQuery(lastQuery(), 'hush', NOW / 1000)).toEqual({ valid: false, reason: 'missing_signature' });
    standin.setProxySigning('valid');
  });

  async function cartCall(path: string, cookie: string, init: RequestInit = {}) {
    const response = await fetch(`${standin.url}${path}`, { ...init, headers: { cookie, ...init.headers } });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> & { items: Record<string, unknown>[] } };
  }
  const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('speaks the AJAX Cart API: form and JSON adds, change by line, update, clear, selling plans', async () => {
    const first = await fetch(`${standin.url}/cart.js`);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^cart=c1-[0-9a-f]{32}$/);

    const form = new URLSearchParams({ id: '10012', quantity: '2', 'properties[Engraving]': 'Hi' });
    const single = await cartCall('/cart/add.js', cookie, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(single.status).toBe(200);
    expect(single.json).toMatchObject({ id: 10012, quantity: 2, properties: { Engraving: 'Hi' }, title: 'Organic Cotton Tee - Medium' });

    const multi = await cartCall('/cart/add.js', cookie, json({ items: [{ id: 10021, quantity: 1, selling_plan: 7001 }, { id: 20011, quantity: 1, properties: { _svc_auto: 'true' } }] }));
    expect(multi.json.items.map((item) => [item.id, item.price])).toEqual([[10021, 1620], [20011, 1200]]);
    expect(multi.json.items[0]).toMatchObject({ selling_plan_allocation: { selling_plan: { id: 7001 } } });

    let cart = await cartCall('/cart.js', cookie);
    // Newest first; one line per variant and properties.
    expect(cart.json.items.map((item) => item.id)).toEqual([20011, 10021, 10012]);
    expect(cart.json).toMatchObject({ item_count: 4, total_price: 1200 + 1620 + 6000, currency: 'USD' });
    expect(cart.json.items[2]).not.toHaveProperty('selling_plan_allocation');

    cart = await cartCall('/cart/change.js', cookie, json({ line: 1, quantity: 0 }));
    expect(cart.json.items.map((item) => item.id)).toEqual([10021, 10012]);
    cart = await cartCall('/cart/update.js', cookie, json({ updates: { 10031: 1, [String(cart.json.items[1]?.key)]: 3 } }));
    expect(cart.json.items.map((item) => [item.id, item.quantity])).toEqual([[10031, 1], [10021, 1], [10012, 3]]);
    cart = await cartCall('/cart/clear.js', cookie, json({}));
    expect(cart.json.items).toEqual([]);
  });

  it('refuses like the platform: unknown variant 404, sold out 422, a bad line 400, and a fault a test queued', async () => {
    const cookie = 'cart=c1-unknown';
    expect(await cartCall('/cart/add.js', cookie, json({ id: 999, quantity: 1 }))).toMatchObject({ status: 404, json: { status: 404, description: 'Cannot find variant' } });
    expect(await cartCall('/cart/add.js', cookie, json({ items: [{ id: 20031, quantity: 1 }] }))).toMatchObject({
      status: 422,
      json: { status: 422, message: 'Cart Error', description: "The product 'Tea Sampler' is already sold out." },
    });
    expect((await cartCall('/cart/change.js', cookie, json({ line: 9, quantity: 1 }))).status).toBe(400);
    expect((await cartCall('/cart/add.js', cookie, json({ items: 'nope' }))).status).toBe(400);

    standin.setInventory(20031, 5);
    standin.failNext('/cart/add.js', 429);
    expect((await cartCall('/cart/add.js', cookie, json({ id: 20031, quantity: 1 }))).status).toBe(429);
    expect((await cartCall('/cart/add.js', cookie, json({ id: 20031, quantity: 1 }))).status).toBe(200);
    expect(standin.cartRequests().filter((request) => request.path === '/cart/add.js').map((request) => request.status).slice(-3)).toEqual([400, 429, 200]);
  });
});
