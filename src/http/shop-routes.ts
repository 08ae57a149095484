/**
 * The route machinery of the whole API. The public API's handlers are written once and mounted
 * twice (CONTRACT "Admin API"): under `/api/v1` behind an API key, and under
 * `/admin/v1/shops/:shopId` behind the admin token. Only how the shop is found and the webhook
 * `trigger` differ. The admin-only routes are declared the same way and mounted by the same
 * function; each route's Zod schemas validate the request and describe it in the OpenAPI documents.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RateLimitPolicyName } from '../rate-limit/policies.ts';
import type { ShopRecord } from '../db/schema.ts';
import { parseOr400 } from './errors.ts';
import { DeferredJsonBody } from './json-body.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * Which way in a request came by, and so who caused a change, as webhooks report it: an API
 * key, the operator's admin API, or a storefront (app proxy or publishable token; it changes
 * no campaign, but its events are its own).
 */
export type Trigger = 'api' | 'admin' | 'storefront';

export type ResponseSpec = { description: string; schema?: z.ZodType; headers?: Record<string, string> };

/** What every handler gets: the validated request parts and who is calling. */
export type RouteInput<P, Q, B> = {
  params: P;
  query: Q;
  body: B;
  trigger: Trigger;
  request: FastifyRequest;
  reply: FastifyReply;
};

export type ShopRouteInput<P, Q, B> = RouteInput<P, Q, B> & { shop: ShopRecord };

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * What a route declares, public or admin: one shape, so one mount function validates every
 * route and one document builder describes it.
 */
export type RouteDefBase<P extends Schema, Q extends Schema, B extends Schema> = {
  method: HttpMethod;
  /** Relative to the mount point, e.g. `/campaigns/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A shortcut past `body` for bodies that are plainly valid: what `body` would parse them to,
   * or undefined to let `body` judge (it then accepts or words the refusal). It never refuses,
   * so a route answers as its schema says either way; a hot route saves the schema's walk.
   * `shopId` is the caller's shop (undefined on operator routes). It must build fresh objects
   * of the keys it knows (never copy an object of the input): it is handed JSON parsed without
   * the prototype-poisoning scans (json-body.ts `DeferredJsonBody`).
   */
  fastBody?: (body: unknown, shopId: string | undefined) => Out<B> | undefined;
  /**
   * With `fastBody`: how the JSON text becomes the value `fastBody` is given (JSON.parse when
   * absent). It must give what JSON.parse gives, or throw where JSON.parse throws.
   */
  fastJson?: (text: string, shopId: string | undefined) => unknown;
  /** Every field of the body is optional: a request without a body (or `null`) is read as `{}`. */
  bodyOptional?: boolean;
  /** A body limit in bytes below the server's BODY_LIMIT_BYTES (which still applies when lower). */
  bodyLimit?: number;
  /** The `error` text of a 400 for a bad body; SPEC names some (e.g. widgets). */
  bodyError?: string;
  /** Optional request headers the handler reads (name → description), for the documents. */
  requestHeaders?: Record<string, string>;
  responses: Record<number, ResponseSpec>;
};

export type ShopRouteDef<P extends Schema, Q extends Schema, B extends Schema> = RouteDefBase<P, Q, B> & {
  /** SPEC "Limits": which per-key window the route counts against. */
  rateLimit: RateLimitPolicyName;
  /** Returns the response body; set another status or headers on `reply`. */
  handler: (input: ShopRouteInput<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>;
};

/** A route of one shop with its schema types erased, ready to mount (public or admin-only). */
export type ShopScopedRoute = RouteDefBase<Schema, Schema, Schema> & {
  scope: 'shop';
  /** Absent on admin-only routes: the admin API is not rate limited. */
  rateLimit?: RateLimitPolicyName;
  handler: (input: ShopRouteInput<unknown, unknown, unknown>) => Promise<unknown>;
};

/** A public route with its schema types erased: mounted under `/api/v1` (rate limited) and on the admin shop mount. */
export type ShopRoute = ShopScopedRoute & { rateLimit: RateLimitPolicyName };

/** An operator route of the admin API that belongs to no shop (e.g. `POST /shops`). */
export type OperatorRoute = RouteDefBase<Schema, Schema, Schema> & {
  scope: 'operator';
  handler: (input: RouteInput<unknown, unknown, unknown>) => Promise<unknown>;
};

export type MountableRoute = ShopScopedRoute | OperatorRoute;

/**
 * Declares one public route; the generics carry the schemas' types into the handler.
 *
 * @example
 *   defineShopRoute({ method: 'GET', path: '/widgets', ..., handler: async ({ shop }) => ({ widgets }) });
 */
export function defineShopRoute<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
  route: ShopRouteDef<P, Q, B>,
): ShopRoute {
  return { ...route, scope: 'shop' } as unknown as ShopRoute;
}

/** Finds the shop of a request to `route` (authentication included), or throws the error to answer. */
export type ShopResolver<R extends ShopScopedRoute = ShopRoute> = (
  request: FastifyRequest,
  reply: FastifyReply,
  route: R,
) => Promise<ShopRecord>;

type AdminShopRouteDef<P extends Schema, Q extends Schema, B extends Schema> = RouteDefBase<P, Q, B> & {
  /** Relative to `/admin/v1/shops/:shopId`, like a public route on the admin mount. */
  scope: 'shop';
  handler: (input: ShopRouteInput<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>;
};

type OperatorRouteDef<P extends Schema, Q extends Schema, B extends Schema> = RouteDefBase<P, Q, B> & {
  /** Relative to `/admin/v1`. */
  scope: 'operator';
  handler: (input: RouteInput<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>;
};

/**
 * Declares one admin-only route, in the shape of {@link defineShopRoute} minus the rate limit
 * (the admin API is the operator's). `scope: 'shop'` routes find their shop as the admin mount
 * of the public routes does; `scope: 'operator'` routes belong to no shop.
 *
 * @example
 *   defineAdminRoute({ scope: 'shop', method: 'GET', path: '/api-keys', ..., handler: async ({ shop }) => ({ apiKeys }) });
 */
export function defineAdminRoute<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
  route: AdminShopRouteDef<P, Q, B>,
): ShopScopedRoute;
export function defineAdminRoute<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
  route: OperatorRouteDef<P, Q, B>,
): OperatorRoute;
export function defineAdminRoute(route: AdminShopRouteDef<Schema, Schema, Schema> | OperatorRouteDef<Schema, Schema, Schema>): MountableRoute {
  return route as unknown as MountableRoute;
}

/** The request's params, query and body, each parsed by the route's schema or a 400. */
function parseRequest(route: MountableRoute, request: FastifyRequest, shopId?: string): { params: unknown; query: unknown; body: unknown } {
  const params = route.params ? parseOr400(route.params, request.params, 'Invalid path parameters') : undefined;
  const query = route.query ? parseOr400(route.query, request.query, 'Invalid query parameters') : undefined;
  const rawBody = route.bodyOptional ? (request.body ?? {}) : request.body;
  const body = route.body ? parseBody(route, route.body, rawBody, shopId) : undefined;
  return { params, query, body };
}

/** The body by the route's shortcut, else by its schema (or Fastify's parser's 400 first). */
function parseBody(route: MountableRoute, schema: z.ZodType, rawBody: unknown, shopId: string | undefined): unknown {
  if (!(rawBody instanceof DeferredJsonBody)) return route.fastBody?.(rawBody, shopId) ?? parseOr400(schema, rawBody, route.bodyError ?? 'Invalid request body');
  const unscanned = rawBody.unscanned(route.fastJson === undefined ? undefined : (text) => route.fastJson?.(text, shopId));
  const accepted = unscanned === undefined ? undefined : route.fastBody?.(unscanned, shopId);
  return accepted ?? parseOr400(schema, rawBody.checked(), route.bodyError ?? 'Invalid request body');
}

/**
 * Mounts `routes`: shop routes under `shopPrefix`, each preceded by `resolveShop`
 * (authentication, plan, rate limit), so a request reaches its handler only with its shop in
 * hand; operator routes (admin only) at the mount's root. Validation happens after the shop
 * is resolved: an unauthenticated request learns nothing about the body it sent.
 */
export function mountRoutes<R extends ShopScopedRoute>(
  app: FastifyInstance,
  routes: ReadonlyArray<R | OperatorRoute>,
  mount: { shopPrefix: string; trigger: Trigger; resolveShop: ShopResolver<R> },
): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.scope === 'shop' ? `${mount.shopPrefix}${route.path}` : route.path,
      ...(route.bodyLimit === undefined ? {} : { bodyLimit: Math.min(route.bodyLimit, app.initialConfig.bodyLimit ?? route.bodyLimit) }),
      // A route with a shortcut parses its JSON body itself, once its caller is known (json-body.ts).
      config: { deferJson: route.fastBody !== undefined },
      handler: async (request, reply) => {
        if (route.scope === 'operator') {
          return route.handler({ ...parseRequest(route, request), trigger: mount.trigger, request, reply });
        }
        const shop = await mount.resolveShop(request, reply, route);
        const { params, query, body } = parseRequest(route, request, shop.id);
        // Awaited, not returned: an async function that returns a promise adopts it two
        // microtask turns later than one that awaits it (every API request comes this way).
        return await route.handler({ params, query, body, shop, trigger: mount.trigger, request, reply });
      },
    });
  }
}
