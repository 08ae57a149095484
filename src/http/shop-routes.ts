/**
 * The public API's handlers are written once and mounted twice (CONTRACT "Admin API"): under
 * `/api/v1` behind an API key, and under `/admin/v1/shops/:shopId` behind the admin token.
 * Only how the shop is found and the webhook `trigger` differ; each route's Zod schemas
 * validate the request and describe it in the OpenAPI document.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RateLimitPolicyName } from '../rate-limit/policies.ts';
import type { ShopRecord } from '../shops/store.ts';
import { parseOr400 } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Who caused a change, as webhooks report it: an API key or the operator's admin API. */
export type Trigger = 'api' | 'admin';

export type ResponseSpec = { description: string; schema?: z.ZodType; headers?: Record<string, string> };

export type ShopRouteInput<P, Q, B> = {
  params: P;
  query: Q;
  body: B;
  shop: ShopRecord;
  trigger: Trigger;
  request: FastifyRequest;
  reply: FastifyReply;
};

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export type ShopRouteDef<P extends Schema, Q extends Schema, B extends Schema> = {
  method: HttpMethod;
  /** Relative to the mount point, e.g. `/campaigns/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** SPEC "Limits": which per-key window the route counts against. */
  rateLimit: RateLimitPolicyName;
  params?: P;
  query?: Q;
  body?: B;
  /** The `error` text of a 400 for a bad body; SPEC names some (e.g. widgets). */
  bodyError?: string;
  responses: Record<number, ResponseSpec>;
  /** Returns the response body; set another status or headers on `reply`. */
  handler: (input: ShopRouteInput<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>;
};

/** A route with its schema types erased, ready to mount. */
export type ShopRoute = ShopRouteDef<Schema, Schema, Schema>;

/**
 * Declares one public route; the generics carry the schemas' types into the handler.
 *
 * @example
 *   defineShopRoute({ method: 'GET', path: '/widgets', ..., handler: async ({ shop }) => ({ widgets }) });
 */
export function defineShopRoute<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
  route: ShopRouteDef<P, Q, B>,
): ShopRoute {
  return route as unknown as ShopRoute;
}

export type ShopResolver = (request: FastifyRequest, reply: FastifyReply, route: ShopRoute) => Promise<ShopRecord>;

/**
 * Mounts `routes` under `prefix`, each preceded by `resolveShop` (authentication, plan,
 * rate limit): a request reaches its handler only with its shop in hand.
 */
export function mountShopRoutes(
  app: FastifyInstance,
  routes: readonly ShopRoute[],
  mount: { prefix: string; trigger: Trigger; resolveShop: ShopResolver },
): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: `${mount.prefix}${route.path}`,
      handler: async (request, reply) => {
        const shop = await mount.resolveShop(request, reply, route);
        const params = route.params ? parseOr400(route.params, request.params, 'Invalid path parameters') : undefined;
        const query = route.query ? parseOr400(route.query, request.query, 'Invalid query parameters') : undefined;
        const body = route.body
          ? parseOr400(route.body, request.body, route.bodyError ?? 'Invalid request body')
          : undefined;
        return route.handler({ params, query, body, shop, trigger: mount.trigger, request, reply });
      },
    });
  }
}
