/**
 * CONTRACT "Storefront": `GET /storefront/v1/gifts.js`, the theme script, "with a long
 * cache lifetime under a versioned URL". No token: it is public code, the same for every
 * shop (the shop's data comes later, through the proxy).
 *
 * - `gifts.js` (the URL themes include): short-lived (`public, max-age=300`), revalidated
 *   with its ETag, so a deploy reaches storefronts within minutes. `Content-Location` names
 *   the versioned URL of the same bytes.
 * - `gifts.<hash>.js` (hash = first 16 hex digits of the bundle's SHA-256):
 *   `public, max-age=31536000, immutable`; any other hash is 404 (an old version is not
 *   kept, and serving today's bytes under yesterday's name would poison caches for a year).
 * - `gifts-widgets.<hash>.js`: the on-demand chunk gifts.js fetches when a widget that waits
 *   for a shopper first shows (packages/storefront/scripts/build-script.ts); only under its
 *   versioned URL, which the first load carries, immutable like the other.
 *
 * The bundle is built in memory with esbuild from packages/storefront, once per process
 * (`loadStorefrontScript`; `npm start` awaits it before listening), or read from the prebuilt
 * server bundle's directory, which builds it from the same sources alongside the server
 * (src/startup/server-bundle.ts), and precompressed with
 * gzip and br exactly like GET /rules (one strong ETag per coding, Vary: Accept-Encoding).
 * Building at start needs no build step on a fresh clone (`npm ci && npm start`, `npm test`)
 * and cannot serve a bundle older than the sources; esbuild is therefore a runtime dependency.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { buildStorefrontScript, scriptHash, widgetsFileName } from '@gcrs/storefront/build-script';
import { chooseContentCoding } from '../http/accept-encoding.ts';
import type { ContentCoding } from '../http/accept-encoding.ts';
import { notFound } from '../http/errors.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import { encodeRepresentationsOffThread } from '../rules/representations.ts';
import type { RulesRepresentation } from '../rules/representations.ts';

export const SCRIPT_PATH = '/storefront/v1/gifts.js';
export const SHORT_CACHE_CONTROL = 'public, max-age=300';
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** One asset ready to serve: its content hash, versioned path and bytes per coding. */
export type ServedAsset = {
  hash: string;
  versionedPath: string;
  representations: Record<ContentCoding, RulesRepresentation>;
  etags: readonly string[];
};

/** The first load, and the on-demand chunk it fetches. */
export type ServedScript = ServedAsset & { widgets: ServedAsset };

/**
 * Where a prebuilt first load's chunk is written beside it (src/startup/server-bundle.ts).
 *
 * @example prebuiltWidgetsPath('/b/gifts-3f2a.js') // '/b/gifts-3f2a.widgets.js'
 */
export const prebuiltWidgetsPath = (prebuilt: string): string => prebuilt.replace(/\.js$/, '.widgets.js');

async function served(name: string, path: string, code: Buffer, hash: string): Promise<ServedAsset> {
  // Off the event loop: at start it runs while PGlite starts on the main thread (~45 ms of brotli).
  const representations = await encodeRepresentationsOffThread(`"${name}-${hash}"`, code);
  return { hash, versionedPath: path, representations, etags: [...new Set(Object.values(representations).map((representation) => representation.etag))] };
}

let loading: Promise<ServedScript> | undefined;

/**
 * Builds (once per process), or reads from `prebuilt` (a file the server bundle's build wrote from
 * the same sources), and precompresses the script.
 *
 * @example const script = await loadStorefrontScript(); script.versionedPath // '/storefront/v1/gifts.3f2a….js'
 */
export function loadStorefrontScript(prebuilt?: string): Promise<ServedScript> {
  const fromPrebuilt = async (path: string) => {
    const [code, widgets] = await Promise.all([readFile(path), readFile(prebuiltWidgetsPath(path))]);
    return { code, hash: scriptHash(code), widgets: { code: widgets, hash: scriptHash(widgets) } };
  };
  // Gone (a newer build replaced it since the start checked it): built from the sources instead.
  const build = () => (prebuilt === undefined ? buildStorefrontScript() : fromPrebuilt(prebuilt).catch(buildStorefrontScript));
  loading ??= build().then(async ({ code, hash, widgets }) => ({
    ...(await served('gifts', `/storefront/v1/gifts.${hash}.js`, code, hash)),
    widgets: await served('gifts-widgets', `/storefront/v1/${widgetsFileName(widgets.hash)}`, widgets.code, widgets.hash),
  }));
  // A failed build is not cached: the next request tries again (and logs the error).
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

async function send(request: FastifyRequest, reply: FastifyReply, script: ServedAsset, cacheControl: string) {
  const representation = script.representations[chooseContentCoding(request.headers['accept-encoding'])];
  reply.headers({
    ETag: representation.etag,
    'Cache-Control': cacheControl,
    Vary: 'Accept-Encoding',
    'Content-Location': script.versionedPath,
    'X-Content-Type-Options': 'nosniff',
    // Themes load it from the shop's domain: let it load under a page's COEP too.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  if (ifNoneMatchHits(request.headers['if-none-match'], script.etags)) return reply.code(304).send();
  if (representation.coding !== 'identity') reply.header('Content-Encoding', representation.coding);
  return reply.type('text/javascript; charset=utf-8').send(representation.body);
}

/** Registers both URLs of the script on `app` (self-contained: no shop, no token, no limiter). */
export function registerStorefrontScriptRoutes(app: FastifyInstance, load: () => Promise<ServedScript> = loadStorefrontScript): void {
  app.get(SCRIPT_PATH, async (request, reply) => send(request, reply, await load(), SHORT_CACHE_CONTROL));
  app.get<{ Params: { hash: string } }>('/storefront/v1/gifts.:hash.js', async (request, reply) => {
    const script = await load();
    if (request.params.hash !== script.hash) throw notFound('Script version');
    return send(request, reply, script, IMMUTABLE_CACHE_CONTROL);
  });
  app.get<{ Params: { hash: string } }>('/storefront/v1/gifts-widgets.:hash.js', async (request, reply) => {
    const { widgets } = await load();
    if (request.params.hash !== widgets.hash) throw notFound('Script version');
    return send(request, reply, widgets, IMMUTABLE_CACHE_CONTROL);
  });
}
