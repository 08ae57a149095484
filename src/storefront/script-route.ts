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
 * - `gifts-<chunk>.<hash>.js` (`widgets`, `progress`, `debug`): the on-demand chunks gifts.js
 *   fetches when first needed (packages/storefront/scripts/build-script.ts); only under their
 *   versioned URLs, which the first load carries, immutable like the other.
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
import { CHUNK_NAMES, buildStorefrontScript, chunkFileName, scriptHash } from '@gcrs/storefront/build-script';
import type { ChunkName } from '@gcrs/storefront/build-script';
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

/** The first load, and the on-demand chunks it fetches. */
export type ServedScript = ServedAsset & { chunks: Record<ChunkName, ServedAsset> };

/**
 * Where a prebuilt first load's chunk is written beside it (src/startup/server-bundle.ts).
 *
 * @example prebuiltChunkPath('/b/gifts-3f2a.js', 'widgets') // '/b/gifts-3f2a.widgets.js'
 */
export const prebuiltChunkPath = (prebuilt: string, name: ChunkName): string => prebuilt.replace(/\.js$/, `.${name}.js`);

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
  type Built = { code: Buffer; hash: string; chunks: Record<ChunkName, { code: Buffer; hash: string }> };
  const fromPrebuilt = async (path: string): Promise<Built> => {
    const [code, ...chunks] = await Promise.all([readFile(path), ...CHUNK_NAMES.map((name) => readFile(prebuiltChunkPath(path, name)))]);
    const byName = Object.fromEntries(CHUNK_NAMES.map((name, index) => [name, { code: chunks[index] as Buffer, hash: scriptHash(chunks[index] as Buffer) }]));
    return { code, hash: scriptHash(code), chunks: byName as Built['chunks'] };
  };
  // Gone (a newer build replaced it since the start checked it): built from the sources instead.
  const build = (): Promise<Built> => (prebuilt === undefined ? buildStorefrontScript() : fromPrebuilt(prebuilt).catch(buildStorefrontScript));
  loading ??= build().then(async ({ code, hash, chunks }) => {
    const servedChunks = await Promise.all(
      CHUNK_NAMES.map((name) => served(`gifts-${name}`, `/storefront/v1/${chunkFileName(name, chunks[name].hash)}`, chunks[name].code, chunks[name].hash)),
    );
    return {
      ...(await served('gifts', `/storefront/v1/gifts.${hash}.js`, code, hash)),
      chunks: Object.fromEntries(CHUNK_NAMES.map((name, index) => [name, servedChunks[index]])) as Record<ChunkName, ServedAsset>,
    };
  });
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
  for (const name of CHUNK_NAMES) {
    app.get<{ Params: { hash: string } }>(`/storefront/v1/gifts-${name}.:hash.js`, async (request, reply) => {
      const chunk = (await load()).chunks[name];
      if (request.params.hash !== chunk.hash) throw notFound('Script version');
      return send(request, reply, chunk, IMMUTABLE_CACHE_CONTROL);
    });
  }
}
