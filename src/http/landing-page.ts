/**
 * `GET /`: the address the README and the start log send a newcomer to. A short page that says
 * what the service is and where to go next: the merchant admin (`/app/`), the API reference
 * (`/docs`), the health check. It names no shop and no setting, so it is the same for everyone;
 * the JSON API's 404s are unchanged for every other unknown path.
 */
import type { FastifyInstance } from 'fastify';

const LANDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gift Campaign Rewards Service</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:2rem 1.5rem;color:#222}
a{color:#005bd3}li{margin:.4rem 0}code{background:#f3f3f3;padding:0 .25rem;border-radius:3px}</style>
</head><body><main>
<h1>Gift Campaign Rewards Service</h1>
<p>The service is running. Where to go from here:</p>
<ul>
<li><a href="/app/">Merchant admin</a>: campaigns, widgets, analytics and settings of a shop. Sign in with a link from <code>npm run cli -- shop:login-link &lt;shopId&gt;</code>.</li>
<li><a href="/docs">API reference</a>: every endpoint of the public API, with its OpenAPI document at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</li>
<li><a href="/healthz">Health check</a>: <code>{"ok":true}</code> while the database answers.</li>
</ul>
</main></body></html>
`;

/**
 * Registers `GET /`.
 *
 * @example registerLandingPage(app); // GET / → 200 text/html
 */
export function registerLandingPage(app: FastifyInstance): void {
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(LANDING_PAGE));
}
