/**
 * Serves the merchant admin's front end (app/, docs/merchant-admin.md "The stack") at `/app/`.
 * A start from the prebuilt server bundle brings its files (`usePrebuiltAppFiles`); otherwise,
 * like the storefront script, it is built in memory with esbuild, so a fresh clone's `npm ci &&
 * npm start` serves it with no build step and never an outdated bundle. That build runs at the
 * first request of `/app/` (once per process; `warmAppBundle` starts it after listening), so the
 * service starts as fast as before.
 *
 * - `/app/` and `/app/index.html`: the page, `no-cache` (it names the hashed assets).
 * - `/app/assets/app.<hash>.js|css`: immutable for a year, precompressed (gzip, br) like GET
 *   /rules; another hash is 404.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chooseContentCoding } from '../http/accept-encoding.ts';
import type { ContentCoding } from '../http/accept-encoding.ts';
import { notFound } from '../http/errors.ts';
import type { Installer } from '../install/installer.ts';
import { APP_BRIDGE_SCRIPT, embeddingShop, frameAncestors } from './embedding.ts';
import { escapeHtml, plainPage } from './plain-page.ts';
import type { EmbeddingInput } from './embedding.ts';
import { encodeRepresentationsOffThread } from '../rules/representations.ts';
import type { RulesRepresentation } from '../rules/representations.ts';

const ENTRY = fileURLToPath(new URL('../../app/src/main.tsx', import.meta.url));

type Asset = { type: string; representations: Record<ContentCoding, RulesRepresentation> };

/** The built app: its page, its assets precompressed per coding (like GET /rules), and their sizes. */
export type AppBundle = { html: string; assets: Map<string, Asset>; jsBytes: number; cssBytes: number };

/** Where an embedded load's App Bridge tags go: before the app's own script, as the platform requires. */
const APP_BRIDGE_SLOT = '<!--app-bridge-->';

let loading: Promise<AppBundle> | undefined;
/** The prebuilt files of the server bundle (startup/server-bundle.ts), when `npm start` found one. */
let prebuiltFiles: AppFiles | undefined;

/** The app's built files: its script and its style sheet (either may be empty). */
export type AppFiles = { js: Uint8Array; css: Uint8Array };

/**
 * Builds the app's files with esbuild (~1.2 s); `inputs` are the source files it read, relative
 * to the working directory, for the server bundle's manifest.
 *
 * @example const { files } = await buildAppFiles();
 */
export async function buildAppFiles(): Promise<{ files: AppFiles; inputs: string[] }> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    // The engine's TypeScript sources (its plan matrix and types), as the server runs them, and the
    // storefront package's widget renderers for the widgets preview, as its own build reads them.
    conditions: ['@gcrs/source'],
    outdir: '/app-out',
    entryNames: 'app',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    legalComments: 'none',
    metafile: true,
  });
  const files: AppFiles = { js: new Uint8Array(), css: new Uint8Array() };
  for (const file of result.outputFiles) files[file.path.endsWith('.css') ? 'css' : 'js'] = file.contents;
  return { files, inputs: Object.keys(result.metafile.inputs).filter((path) => !path.startsWith('<')) };
}

/**
 * Uses `files` (read from the server bundle's directory) instead of building: a start from the
 * prebuilt bundle spawns no esbuild for the admin either. Call before the first request.
 */
export function usePrebuiltAppFiles(files: AppFiles): void {
  prebuiltFiles = files;
}

async function build(): Promise<AppBundle> {
  return assemble(prebuiltFiles ?? (await buildAppFiles()).files);
}

/** The page and the assets, named by their content hash and precompressed, of `files`. */
async function assemble(files: AppFiles): Promise<AppBundle> {
  const assets = new Map<string, Asset>();
  const names: Record<'js' | 'css', string> = { js: '', css: '' };
  for (const ext of ['js', 'css'] as const) {
    const body = Buffer.from(files[ext]);
    if (body.length === 0) continue;
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    const name = `app.${hash}.${ext}`;
    names[ext] = name;
    assets.set(name, {
      type: ext === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      // Off the event loop: ~1.2 MB of br + gzip would hold every request for ~0.2 s right after start.
      representations: await encodeRepresentationsOffThread(`"${hash}"`, body),
    });
  }
  const jsBytes = files.js.length;
  const cssBytes = files.css.length;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Gift campaigns</title>
<link rel="icon" href="data:,">
${names.css ? `<link rel="stylesheet" href="/app/assets/${names.css}">` : ''}
${APP_BRIDGE_SLOT}<script type="module" src="/app/assets/${names.js}"></script></head>
<body><div id="root"><p style="font:14px sans-serif;padding:1rem">Loading…</p></div>
<noscript>The merchant admin needs JavaScript.</noscript></body></html>`;
  return { html, assets, jsBytes, cssBytes };
}

/**
 * Builds (once per process) the front end. A failed build is not kept: the next request retries.
 *
 * @example const { jsBytes } = await loadAppBundle();
 */
export function loadAppBundle(): Promise<AppBundle> {
  loading ??= build();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Starts the build in the background (after listening) and logs a failure instead of throwing. */
export function warmAppBundle(onError: (error: unknown) => void): void {
  loadAppBundle().catch(onError);
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page for one load: a verified admin load of a known shop (./embedding.ts) may be framed by
 * that shop's admin and loads App Bridge (which gives the app its session tokens); any other
 * load may be framed by no one.
 */
async function page(request: FastifyRequest, reply: FastifyReply, options: AppAssetsOptions) {
  // The platform's first load of a shop carries its session token: install before rendering.
  const refusal = await options.installer?.onEmbeddedLoad(request.query);
  if (refusal) {
    return reply
      .code(refusal.status)
      .headers({ ...refusal.headers, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': frameAncestors(refusal.frameShop) })
      .type('text/html; charset=utf-8')
      .send(plainPage(refusal.title, `<h1>${escapeHtml(refusal.title)}</h1><p>${escapeHtml(refusal.detail)}</p>`));
  }
  const [bundle, shop] = await Promise.all([loadAppBundle(), embeddingShop({ ...options, query: request.query })]);
  const appBridge =
    shop && options.appKey
      ? `<meta name="shopify-api-key" content="${escapeAttribute(options.appKey)}"><script src="${APP_BRIDGE_SCRIPT}"></script>\n`
      : '';
  return reply
    .headers({
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Content-Security-Policy': frameAncestors(shop),
    })
    .type('text/html; charset=utf-8')
    .send(bundle.html.replace(APP_BRIDGE_SLOT, appBridge));
}

export type AppAssetsOptions = Omit<EmbeddingInput, 'query'> & { installer?: Installer };

export function registerAppAssets(app: FastifyInstance, options: AppAssetsOptions): void {
  // ignoreTrailingSlash: this serves `/app` too.
  app.get('/app/', async (request, reply) => page(request, reply, options));
  app.get('/app/index.html', async (request, reply) => page(request, reply, options));
  app.get<{ Params: { file: string } }>('/app/assets/:file', async (request, reply) => {
    const asset = (await loadAppBundle()).assets.get(request.params.file);
    if (!asset) throw notFound('Asset');
    const representation = asset.representations[chooseContentCoding(request.headers['accept-encoding'])];
    reply.headers({
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ETag: representation.etag,
    });
    if (representation.coding !== 'identity') reply.header('Content-Encoding', representation.coding);
    return reply.type(asset.type).send(representation.body);
  });
}
