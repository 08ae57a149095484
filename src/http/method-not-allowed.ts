/**
 * SPEC "Conventions": a wrong method on a known path is 405 with `Allow` listing the path's
 * methods (e.g. `GET, PUT, DELETE` for a campaign). Fastify answers 404 for those, so the
 * routes are recorded as they are added and the other methods are filled in with a 405.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { corsPreflightRefused, isCorsPreflight } from './cors.ts';
import { methodNotAllowed } from './errors.ts';

const FILLED: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function trackRoutes(app: FastifyInstance): { fill405(): void } {
  const methodsByUrl = new Map<string, Set<string>>();
  let filling = false;
  app.addHook('onRoute', (route) => {
    if (filling) return;
    const methods = methodsByUrl.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByUrl.set(route.url, methods);
  });
  return {
    /** Call once, after every route is registered. */
    fill405() {
      filling = true;
      for (const [url, methods] of methodsByUrl) {
        const allow = [...methods].filter((m) => m !== 'HEAD');
        const missing = FILLED.filter((m) => !methods.has(m));
        if (missing.length === 0) continue;
        app.route({
          method: missing,
          url,
          handler: async (request) => {
            // OPTIONS is never served here, so a preflight lands in this 405 too (see cors.ts).
            throw isCorsPreflight(request) ? corsPreflightRefused(allow) : methodNotAllowed(allow);
          },
        });
      }
    },
  };
}
