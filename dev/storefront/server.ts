/**
 * The stand-in storefront: a small HTTP server playing the platform's Online Store for one shop,
 * for the browser tests and `npm run storefront:dev` (docs/storefront-dev.md says exactly what
 * it stands in for). It serves the theme's product page with the gifts script, the AJAX Cart API
 * on a cart cookie per browser, and the app proxy `/apps/gifts/*` → `{service}/proxy/*`, signed
 * as the platform signs. It records every cart request, so a test can count them.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { forwardToAppProxy } from './app-proxy.ts';
import type { ProxySigning } from './app-proxy.ts';
import { addBodySchema, changeBodySchema, readCartBody, updateBodySchema } from './bodies.ts';
import { CartStore } from './cart.ts';
import type { CartError } from './cart.ts';
import { DEMO_FIXTURE } from './fixture.ts';
import type { FixtureCustomer, StorefrontFixture } from './fixture.ts';
import { EMBED_ASSET_PATH, createEmbedRenderer } from './embed-liquid.ts';
import { productPage } from './page.ts';

export type StandinOptions = {
  /** The service's base URL, e.g. http://127.0.0.1:3000. */
  serviceUrl: string;
  /** PLATFORM_APP_SECRET of the service: the app proxy signs with it. */
  appSecret: string;
  fixture?: StorefrontFixture;
  /** The shop's domain as the service knows it (`shop` of the proxy); the fixture's by default. */
  shopDomain?: string;
  /** The script's URL; `{serviceUrl}/storefront/v1/gifts.js` by default. */
  scriptUrl?: string;
  /**
   * How the theme loads gifts.js: `script-tag` (default), part two's `<script src=…>` include
   * of `scriptUrl`; `embed`, the theme app extension's app embed and app blocks rendered from
   * their Liquid (embed-liquid.ts), with the assets built from packages/storefront.
   */
  theme?: 'script-tag' | 'embed';
  /**
   * The stand-in's checkout (`POST /checkout`, the drawer's "Check out" button): given the cart
   * as `/cart.js` writes it and the signed-in customer, it answers the page to show; a
   * `completed` checkout empties the cart, as placing an order does. Without it there is no
   * checkout (404).
   */
  checkout?: (cart: CartJson, customer: FixtureCustomer | null) => Promise<{ completed: boolean; html: string }>;
  port?: number;
  host?: string;
  now?: () => number;
};

/** The cart as `GET /cart.js` answers it. */
export type CartJson = ReturnType<CartStore['cartJson']>;

/** One request to the AJAX Cart API, as the stand-in saw it. */
export type CartRequest = { at: number; method: string; path: string; status: number; cartToken: string; body: unknown };

export type StorefrontStandin = {
  url: string;
  shopDomain: string;
  /** Every cart request since the start or the last `resetRequests()`. */
  cartRequests(): CartRequest[];
  resetRequests(): void;
  setInventory(variantId: number, inventoryQuantity: number): void;
  setProxySigning(mode: ProxySigning): void;
  /**
   * The next `times` requests to `path` (e.g. `/cart/add.js`), of those whose body `when`
   * accepts (all by default), answer `status` (429 or 409) without touching the cart.
   */
  failNext(path: string, status: 409 | 429, times?: number, when?: (body: unknown) => boolean): void;
  close(): Promise<void>;
};

const PROXY_PREFIX = '/apps/gifts';
const CART_PATHS = new Set(['/cart.js', '/cart.json', '/cart/add.js', '/cart/change.js', '/cart/update.js', '/cart/clear.js']);

function cookies(req: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return jar;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Starts the stand-in on `port` (0: any free port).
 *
 * @example
 *   const shop = await startStorefrontStandin({ serviceUrl: 'http://127.0.0.1:3000', appSecret: 'dev-secret' });
 *   console.log(shop.url); // open it in a browser
 */
export async function startStorefrontStandin(options: StandinOptions): Promise<StorefrontStandin> {
  const fixture = options.fixture ?? DEMO_FIXTURE;
  const shopDomain = options.shopDomain ?? fixture.shopDomain;
  const now = options.now ?? Date.now;
  const carts = new CartStore(fixture);
  let log: CartRequest[] = [];
  let signing: ProxySigning = 'valid';
  const faults = new Map<string, { status: 409 | 429; times: number; when: (body: unknown) => boolean }>();
  const scriptUrl = options.scriptUrl ?? new URL('/storefront/v1/gifts.js', options.serviceUrl).toString();
  const embed = options.theme === 'embed' ? await startEmbed() : undefined;

  function customerOf(req: IncomingMessage) {
    const id = Number(cookies(req).get('customer_id'));
    return fixture.customers.find((customer) => customer.id === id) ?? null;
  }

  async function handleCart(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const known = cookies(req).get('cart');
    const cart = carts.cartFor(known);
    const cookie: Record<string, string> = known === cart.token ? {} : { 'set-cookie': `cart=${cart.token}; Path=/; SameSite=Lax` };
    const raw = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    let body: unknown = {};
    const record = (status: number) => log.push({ at: now(), method: req.method ?? 'GET', path, status, cartToken: cart.token, body });
    const answer = (status: number, json: unknown) => {
      record(status);
      sendJson(res, status, json, cookie);
    };
    const refuse = (error: CartError) => answer(error.status, error);
    const invalid = (description: string) => answer(400, { status: 400, message: 'Bad Request', description });
    const describe = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');

    try {
      body = await readCartBody(raw, req.headers['content-type']);
    } catch (error) {
      return invalid(error instanceof Error ? error.message : 'Unreadable body');
    }
    const fault = faults.get(path);
    if (fault && fault.times > 0 && fault.when(body)) {
      fault.times -= 1;
      return answer(fault.status, { status: fault.status, message: fault.status === 429 ? 'Too Many Requests' : 'Conflict', description: 'Try again later.' });
    }
    if (path === '/cart.js' || path === '/cart.json') {
      if (req.method !== 'GET') return answer(405, { status: 405, message: 'Method Not Allowed', description: 'GET only' });
      return answer(200, carts.cartJson(cart));
    }
    if (req.method !== 'POST') return answer(405, { status: 405, message: 'Method Not Allowed', description: 'POST only' });
    switch (path) {
      case '/cart/add.js': {
        const parsed = addBodySchema.safeParse(body);
        if (!parsed.success) return invalid(describe(parsed.error));
        const outcome = carts.add(cart, parsed.data.items);
        if (!outcome.ok) return refuse(outcome.error);
        const lines = outcome.value.map((line) => carts.lineJson(line));
        return answer(200, parsed.data.single && lines[0] ? lines[0] : { items: lines });
      }
      case '/cart/change.js': {
        const parsed = changeBodySchema.safeParse(body);
        if (!parsed.success) return answer(400, { status: 400, message: 'Cart Error', description: 'no valid id or line parameter' });
        const { id, line, quantity, properties } = parsed.data;
        const outcome = carts.change(cart, { ...(id === undefined ? {} : { id }), ...(line === undefined ? {} : { line }) }, quantity, properties);
        return outcome.ok ? answer(200, carts.cartJson(outcome.value)) : refuse(outcome.error);
      }
      case '/cart/update.js': {
        const parsed = updateBodySchema.safeParse(body);
        if (!parsed.success) return invalid(describe(parsed.error));
        const outcome = carts.update(cart, parsed.data.updates, parsed.data.note, parsed.data.attributes);
        return outcome.ok ? answer(200, carts.cartJson(outcome.value)) : refuse(outcome.error);
      }
      default:
        return answer(200, carts.cartJson(carts.clear(cart)));
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin.local');
    const path = url.pathname.replace(/^\/[a-z]{2}(-[a-z]{2})?(?=\/cart)/i, ''); // locale-aware URLs: /fr/cart/add.js
    const failed = (error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { status: 500, message: 'Internal Server Error', description: String(error) });
      else res.destroy();
    };
    if (CART_PATHS.has(path)) return void handleCart(req, res, path).catch(failed);
    if (url.pathname === PROXY_PREFIX || url.pathname.startsWith(`${PROXY_PREFIX}/`)) {
      const proxyOptions = { serviceUrl: options.serviceUrl, appSecret: options.appSecret, shopDomain, pathPrefix: PROXY_PREFIX, signing: () => signing, now };
      return forwardToAppProxy(proxyOptions, req, res, url, customerOf(req)?.id ?? null);
    }
    // A page, perhaps under a locale prefix as the platform serves them (/fr/products/tee): the embed passes its locale.
    const [, locale = 'en', page = url.pathname] = /^(?:\/([a-z]{2}(?:-[a-z]{2})?)(?=\/|$))?(.*)$/i.exec(url.pathname) ?? [];
    if (req.method === 'GET' && (['/', '', '/collections/all', '/cart'].includes(page) || page.startsWith('/products/'))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      const customer = customerOf(req);
      const pageOptions = { fixture, scriptUrl, proxyPrefix: PROXY_PREFIX, customer, checkout: options.checkout !== undefined, drawer: url.searchParams.get('drawer') === 'closed' ? ('closed' as const) : ('open' as const) };
      if (embed === undefined) return void res.end(productPage(pageOptions));
      return void embed.render({ fixture, customer, locale }).then((blocks) => res.end(productPage({ ...pageOptions, embed: blocks })), failed);
    }
    const asset = req.method === 'GET' && url.pathname.startsWith(EMBED_ASSET_PATH) ? embed?.assets.get(url.pathname.slice(EMBED_ASSET_PATH.length)) : undefined;
    if (asset !== undefined) {
      // As the platform's CDN serves an extension's assets: versioned by `?v=`, cached long.
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000' });
      return void res.end(asset);
    }
    if (req.method === 'POST' && url.pathname === '/checkout' && options.checkout) {
      const checkout = options.checkout;
      const cart = carts.cartFor(cookies(req).get('cart'));
      return void readBody(req)
        .then(() => checkout(carts.cartJson(cart), customerOf(req)))
        .then(({ completed, html }) => {
          if (completed) carts.clear(cart);
          res.writeHead(completed ? 200 : 409, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(html);
        }, failed);
    }
    if (req.method === 'GET' && url.pathname === '/account/login') {
      const customer = fixture.customers.find((c) => String(c.id) === url.searchParams.get('customer_id'));
      if (!customer) return sendJson(res, 404, { status: 404, message: 'Not Found', description: 'No such customer' });
      res.writeHead(303, { location: '/', 'set-cookie': `customer_id=${customer.id}; Path=/; HttpOnly; SameSite=Lax` });
      return void res.end();
    }
    if (req.method === 'GET' && url.pathname === '/account/logout') {
      res.writeHead(303, { location: '/', 'set-cookie': 'customer_id=; Path=/; Max-Age=0' });
      return void res.end();
    }
    // For tests and the bench run out of process: what the cart saw.
    if (req.method === 'GET' && url.pathname === '/__standin/cart-requests') return sendJson(res, 200, { requests: log });
    sendJson(res, 404, { status: 404, message: 'Not Found', description: `${req.method} ${url.pathname}` });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    shopDomain,
    cartRequests: () => [...log],
    resetRequests: () => void (log = []),
    setInventory: (variantId, quantity) => carts.setInventory(variantId, quantity),
    setProxySigning: (mode) => void (signing = mode),
    failNext: (path, status, times = 1, when = () => true) => void faults.set(path, { status, times, when }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const scriptHash = (code: Uint8Array) => createHash('sha256').update(code).digest('hex').slice(0, 16);

/** The theme app extension on the stand-in: its assets built in memory, its blocks' renderer. */
async function startEmbed() {
  const { buildStorefrontScript } = await import('@gcrs/storefront/build-script');
  const { embedAssetFiles } = await import('./embed-assets.ts');
  const script = await buildStorefrontScript();
  const assets = embedAssetFiles(script);
  const versions = Object.fromEntries([...assets].map(([name, code]) => [name, scriptHash(code)]));
  return { assets, render: await createEmbedRenderer(versions) };
}
