/** Serves the OpenAPI document and a page that renders it (no external assets: works offline). */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';
import type * as OpenApi from './openapi.ts';
import type { JsonSchema } from './openapi-components.ts';
import type { MountableRoute, ShopRoute } from './shop-routes.ts';

type Builders = typeof OpenApi;

/**
 * Builds a document at its first request and keeps it; the builders' module (and the engine's
 * JSON Schema of a condition tree, built when that loads) is loaded then too. Walking every
 * route's Zod schemas takes ~0.1 s of CPU, which at start delays readiness for a page few
 * clients ever ask for (docs/performance.md "Start time and memory"). The routes are fixed once
 * mounted, so the document is the same whenever it is built.
 */
function builtOnFirstRequest(build: (builders: Builders) => JsonSchema): () => Promise<JsonSchema> {
  let document: Promise<JsonSchema> | undefined;
  return () => {
    document ??= import('./openapi.ts').then(build);
    // A failure is not kept: the next request tries again.
    document.catch(() => (document = undefined));
    return document;
  };
}

/**
 * `/docs` is Swagger UI (swagger-ui-dist, the OpenAPI initiative's reference viewer, kept by
 * SmartBear): the page, its two assets served from the package in node_modules, and a start
 * script, all from this service, so it works offline and under a strict script policy. Its
 * spec validator badge is off (`validatorUrl: null`: it would send the document to an outside
 * service); the package's install-time analytics (`@scarf/scarf`) are turned off in
 * package.json (`scarfSettings`, `allowScripts`).
 */
const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gift Campaign Rewards Service API</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head><body><main id="swagger-ui"><p>Loading the API reference of <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>…</p></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/start.js"></script>
</body></html>`;

const DOCS_START = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
});
`;

/** The viewer's files by the name the page asks for: nothing else of the package is served. */
const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Reads a viewer asset once, from wherever npm put the package, and keeps it. */
function docsAsset(): (name: string) => Promise<Buffer> {
  const read = new Map<string, Promise<Buffer>>();
  return (name) => {
    let bytes = read.get(name);
    if (bytes === undefined) {
      const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      bytes = readFile(join(dir, name));
      bytes.catch(() => read.delete(name));
      read.set(name, bytes);
    }
    return bytes;
  };
}

/** Serves the public document (no authentication: it describes, it grants nothing) and its page. */
export function registerOpenApiRoutes(app: FastifyInstance, routes: readonly ShopRoute[]): void {
  const document = builtOnFirstRequest((builders) => builders.buildOpenApiDocument(routes));
  app.get('/api/v1/openapi.json', async () => document());
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  const asset = docsAsset();
  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
    const { name } = request.params;
    if (name === 'start.js') return reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(DOCS_START);
    const type = DOCS_ASSETS[name];
    if (type === undefined) throw notFound('Asset');
    return reply.type(type).header('Cache-Control', 'public, max-age=86400').send(await asset(name));
  });
}

/**
 * Serves the admin document at `/openapi.json` of the admin scope, behind the admin token like
 * every admin route: it lists the operator's surface, which is nobody else's business.
 *
 * @example
 *   registerAdminOpenApiRoute(admin, publicShopRoutes(ctx), adminOnlyRoutes(ctx)); // GET /admin/v1/openapi.json
 */
export function registerAdminOpenApiRoute(
  admin: FastifyInstance,
  publicRoutes: readonly ShopRoute[],
  adminRoutes: readonly MountableRoute[],
): void {
  const document = builtOnFirstRequest((builders) => builders.buildAdminOpenApiDocument(publicRoutes, adminRoutes));
  admin.get('/openapi.json', async () => document());
}

/**
 * Serves a document built at its first request at `url`, without authentication (it
 * describes routes, it grants nothing), e.g. the merchant admin mount's.
 */
export function registerDocumentRoute(app: FastifyInstance, url: string, build: (builders: Builders) => JsonSchema): void {
  const document = builtOnFirstRequest(build);
  app.get(url, async () => document());
}
