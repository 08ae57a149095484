/** Serves the OpenAPI document and a page that renders it (no external assets: works offline). */
import type { FastifyInstance } from 'fastify';
import type * as OpenApi from './openapi.ts';
import type { JsonSchema } from './openapi-components.ts';
import type { MountableRoute, ShopRoute } from './shop-routes.ts';

type Builders = typeof OpenApi;

/**
 * Builds a document at its first request and keeps it; the builders' module (and the engine's
 * JSON Schema of a condition tree, built when that loads) is loaded then too. Walking every
 * route's Zod schemas takes ~0.1 s of CPU, which at start delays readiness for a page few
 * clients ever ask for (docs/operations.md "Start time and memory"). The routes are fixed once
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

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gift Campaign Rewards Service API</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem 2rem;color:#222}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}
.op{border:1px solid #ddd;border-radius:6px;margin:.8rem 0;padding:.2rem 1rem}
.m{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
.get{color:#0a7}.post{color:#06c}.put{color:#c70}.delete{color:#c22}
code,pre{font:13px ui-monospace,monospace;background:#f6f6f6}pre{padding:.6rem;overflow:auto;max-height:24rem}
summary{cursor:pointer}
</style></head><body><h1>Gift Campaign Rewards Service API</h1>
<p>The machine-readable document is <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a> (OpenAPI 3.1).</p>
<div id="ops">Loading…</div>
<script>
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
fetch('/api/v1/openapi.json').then((r) => r.json()).then((doc) => {
  const byTag = {};
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops))
    (byTag[(op.tags || ['other'])[0]] ??= []).push({ path, method, op });
  let html = '<p>' + esc(doc.info.description || '') + '</p>';
  for (const [tag, list] of Object.entries(byTag)) {
    html += '<h2>' + esc(tag) + '</h2>';
    for (const { path, method, op } of list) {
      html += '<div class="op"><p><span class="m ' + method + '">' + method + '</span><code>' + esc(path) + '</code> ' + esc(op.summary || '') + '</p>';
      if (op.description) html += '<p>' + esc(op.description) + '</p>';
      if (op.parameters && op.parameters.length) html += '<p>Parameters: ' + op.parameters.map((p) => '<code>' + esc(p.name) + '</code> (' + p.in + (p.required ? ', required' : '') + ')').join(', ') + '</p>';
      if (op.requestBody) html += '<details><summary>Request body</summary><pre>' + esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)) + '</pre></details>';
      html += '<details><summary>Responses: ' + Object.keys(op.responses).join(', ') + '</summary><pre>' + esc(JSON.stringify(op.responses, null, 2)) + '</pre></details></div>';
    }
  }
  document.getElementById('ops').innerHTML = html;
});
</script></body></html>`;

/** Serves the public document (no authentication: it describes, it grants nothing) and its page. */
export function registerOpenApiRoutes(app: FastifyInstance, routes: readonly ShopRoute[]): void {
  const document = builtOnFirstRequest((builders) => builders.buildOpenApiDocument(routes));
  app.get('/api/v1/openapi.json', async () => document());
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
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
