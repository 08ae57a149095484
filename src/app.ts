/**
 * Builds the Fastify app: conventions of SPEC "Conventions" (request ids, JSON everywhere,
 * 404/405, one error handler), the admin API, and the public routes mounted twice.
 */
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import { assertAdmin } from './admin/admin-auth.ts';
import { adminOnlyRoutes } from './admin-routes.ts';
import type { AppContext } from './context.ts';
import { createBodyBudget } from './http/body-budget.ts';
import { registerDrain } from './http/drain.ts';
import { MAX_PATH_PARAM_CHARS, handleError, notFound, unavailable } from './http/errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { serializeReply } from './http/json.ts';
import { trackRoutes } from './http/method-not-allowed.ts';
import { registerLandingPage } from './http/landing-page.ts';
import { registerAdminOpenApiRoute, registerOpenApiRoutes } from './http/openapi-routes.ts';
import { serverTimeouts } from './http/server-timeouts.ts';
import { mountRoutes } from './http/shop-routes.ts';
import { newId } from './ids.ts';
import { registerMerchantAdmin } from './merchant-admin/mount.ts';
import { childLogger } from './logging/child.ts';
import { platformOrderWebhook } from './orders/platform-webhook.ts';
import { platformWebhooks } from './platform-webhooks/route.ts';
import { redisHealth } from './redis/connection.ts';
import { publicShopRoutes } from './routes.ts';
import { registerStorefrontRoutes } from './storefront/mount.ts';
import { registerStorefrontScriptRoutes } from './storefront/script-route.ts';

function noFastifySchemas(): never {
  throw new Error('Fastify route schemas are not used: validate with the route table\'s Zod schemas (src/http/shop-routes.ts)');
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  // A silent logger writes nothing, so Fastify gets none: without one it makes no child
  // logger per request and listens for no response's end (~4% of GET /rules' CPU).
  // request.log is then Fastify's no-op logger, which is all a silent logger would have been.
  const logging =
    ctx.logger.level === 'silent'
      ? {}
      : {
          loggerInstance: ctx.logger as FastifyBaseLogger,
          childLoggerFactory: (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) => childLogger(logger, bindings, options),
        };
  const app = Fastify({
    ...serverTimeouts(ctx.config),
    ...logging,
    genReqId: () => newId('req'),
    // Never trust a caller's X-Request-Id: SPEC wants one unique per request.
    requestIdHeader: false,
    bodyLimit: ctx.config.bodyLimitBytes,
    exposeHeadRoutes: false,
    // Draining is answered below by our own hook, so the 503 has the service's error body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_CHARS },
    // A malformed percent-encoding (`%ZZ`, overlong UTF-8) never reaches a route: the router
    // hands it here, so its 400 has the same body and X-Request-Id as every other error.
    frameworkErrors: handleError,
    // No route declares a Fastify schema: each route's Zod schema validates its input and
    // setReplySerializer below writes every body. Without these factories Fastify loads Ajv and
    // fast-json-stringify at every start (~20 ms) for nothing; a route that declared a schema would
    // now fail the start instead of being validated a second way.
    schemaController: { compilersFactory: { buildValidator: () => noFastifySchemas, buildSerializer: () => noFastifySchemas } },
  });

  // SPEC: requests are JSON. Without Fastify's text parser, other types get a clear 415.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  app.setReplySerializer(serializeReply);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async () => {
    throw notFound('Route');
  });
  // app.close() drains first: no keep-alive socket is closed under a request (http/drain.ts).
  const drain = registerDrain(app);
  // Callback style: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done(drain.draining ? unavailable('Service is shutting down') : undefined);
  });

  const routes = trackRoutes(app);

  app.get('/healthz', async () => {
    try {
      await ctx.database.ping();
      // Redis down is reported but still 200: the limiter falls back (docs/operations.md).
      return ctx.redis ? { ok: true, redis: await redisHealth(ctx.redis) } : { ok: true };
    } catch {
      throw unavailable('Database unreachable');
    }
  });

  registerLandingPage(app);
  const shopRoutes = publicShopRoutes(ctx);
  const adminRoutes = adminOnlyRoutes(ctx);
  registerOpenApiRoutes(app, shopRoutes);
  mountRoutes(app, shopRoutes, {
    shopPrefix: '/api/v1',
    trigger: 'api',
    resolveShop: ctx.resolvers.apiKey,
  });

  // One budget for both signed routes: what an unsigned flood can make the instance hold.
  const unverifiedBodies = createBodyBudget(ctx.config.unverifiedBodyBytes);
  await app.register(platformOrderWebhook(ctx, unverifiedBodies));
  await app.register(platformWebhooks(ctx, unverifiedBodies));
  // CONTRACT "Storefront": the same rules and events handlers for the app proxy and publishable tokens.
  await registerStorefrontRoutes(app, ctx);

  // CONTRACT "Storefront": the theme script (public, no token).
  registerStorefrontScriptRoutes(app);

  // CONTRACT "Merchant admin": the third mount of the route table, for the shop of a session.
  await registerMerchantAdmin(app, ctx, { publicRoutes: shopRoutes, adminRoutes });

  // CONTRACT: without ADMIN_TOKEN the admin API answers 404 and only the CLI administers.
  const adminToken = ctx.config.adminToken;
  if (adminToken !== undefined) {
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', async (request) => assertAdmin(request, adminToken));
        // One mount for both tables: every per-shop route finds its shop the same way.
        mountRoutes(admin, [...adminRoutes, ...shopRoutes], {
          shopPrefix: '/shops/:shopId',
          trigger: 'admin',
          resolveShop: ctx.resolvers.admin,
        });
        registerAdminOpenApiRoute(admin, shopRoutes, adminRoutes);
      },
      { prefix: '/admin/v1' },
    );
  }

  routes.fill405();
  return app;
}
