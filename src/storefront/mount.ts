/**
 * Mounts the storefront routes (routes.ts) for each way in: `/proxy` behind the app-proxy
 * signature (only when PLATFORM_APP_SECRET is set; else 404 like unknown routes) and
 * `/storefront/v1` behind publishable tokens, with CORS. Token auth is per route, not a
 * prefix-wide hook, so other modules may serve their own paths under `/storefront/v1`
 * (the storefront script).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { mountRoutes } from '../http/shop-routes.ts';
import { storefrontRoutes } from './routes.ts';
import { answerPreflight } from './token-auth.ts';

export const APP_PROXY_PREFIX = '/proxy';
export const STOREFRONT_TOKEN_PREFIX = '/storefront/v1';

/**
 * Registers both mounts on `app`; call before the 405 filler.
 *
 * @example
 *   await registerStorefrontRoutes(app, ctx);
 */
export async function registerStorefrontRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const routes = storefrontRoutes(ctx);
  const { appProxy, storefrontToken } = ctx.resolvers;
  if (appProxy !== undefined) {
    mountRoutes(app, routes.proxy, { shopPrefix: APP_PROXY_PREFIX, trigger: 'storefront', resolveShop: appProxy });
  }

  await app.register(async (scope) => {
    // Every answer of the token mount depends on Origin (CORS), errors included.
    scope.addHook('onSend', async (_request, reply, payload) => {
      const vary = reply.getHeader('vary');
      const listed = vary === undefined ? [] : String(vary).split(',').map((name) => name.trim()).filter((name) => name !== '');
      if (!listed.some((name) => name.toLowerCase() === 'origin')) reply.header('Vary', [...listed, 'Origin'].join(', '));
      return payload;
    });
    mountRoutes(scope, routes.token, {
      shopPrefix: STOREFRONT_TOKEN_PREFIX,
      trigger: 'storefront',
      resolveShop: storefrontToken,
    });
    const methodsByPath = new Map<string, string[]>();
    for (const route of routes.token) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    for (const [path, methods] of methodsByPath) {
      scope.options(`${STOREFRONT_TOKEN_PREFIX}${path}`, async (request, reply) => answerPreflight(request.headers.origin, methods, reply));
    }
  });
}
