/**
 * The merchant admin's route table (docs/merchant-admin.md "The mount"): the public routes and
 * the admin-only routes of one shop that a shop's administrator may use, plus the session's own
 * routes. Operator routes (shops, plans, orders, login links, the platform access token) stay on
 * the admin API. The
 * handlers are the very objects of the other mounts: nothing here is a copy.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute, ShopRoute, ShopScopedRoute } from '../http/shop-routes.ts';
import { connectionStatus } from '../platform/connections.ts';
import { presentShop, shopResponseSchema } from '../shops/shop-schemas.ts';
import { csrfTokenOf, SESSION_COOKIE, signInOf } from './auth.ts';
import { revokeSession } from './sessions.ts';

/**
 * Admin-only shop routes that are the operator's alone: recording orders (the platform's or the
 * operator's integration does), login links, and the shop's platform access token (set by the
 * app's installation; a merchant may read whether it is connected, never set or drop it).
 */
export const OPERATOR_ONLY_OPERATIONS: ReadonlySet<string> = new Set([
  'receiveOrder',
  'createLoginLink',
  'connectShopToPlatform',
  'disconnectShopFromPlatform',
]);

/** `Set-Cookie` of the session cookie: HttpOnly, SameSite=Lax, Path=/app, Secure over https. */
export function sessionCookie(value: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/app',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${options.maxAgeSeconds}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

const sessionSchema = shopResponseSchema.extend({
  via: z.enum(['session-token', 'cookie']),
  csrfToken: z.string().optional().meta({ description: 'Cookie sessions: send it as `X-CSRF-Token` on every POST, PUT, PATCH and DELETE' }),
});

function sessionRoutes(ctx: AppContext): ShopScopedRoute[] {
  const secure = ctx.config.publicUrl.startsWith('https:');
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/session',
      operationId: 'getSession',
      summary: 'The signed-in shop and, for a cookie session, its CSRF token',
      tag: 'Sign-in',
      responses: { 200: { description: 'The session', schema: sessionSchema } },
      handler: async ({ shop, request }) => {
        const signIn = signInOf(request);
        const base = { shop: presentShop(shop, ctx.config.planCaps, await connectionStatus(ctx.db, shop.id)) };
        return signIn?.via === 'cookie' ? { ...base, via: 'cookie', csrfToken: csrfTokenOf(signIn.session) } : { ...base, via: 'session-token' };
      },
    }),
    defineAdminRoute({
      scope: 'shop',
      method: 'DELETE',
      path: '/session',
      operationId: 'signOut',
      summary: 'Sign out: ends a cookie session and clears its cookie',
      tag: 'Sign-in',
      responses: { 204: { description: 'Signed out' } },
      handler: async ({ request, reply }) => {
        const signIn = signInOf(request);
        if (signIn?.via === 'cookie') {
          await revokeSession(ctx.db, signIn.session, ctx.now());
          reply.header('Set-Cookie', sessionCookie('', { secure, maxAgeSeconds: 0 }));
        }
        return reply.code(204).send();
      },
    }),
  ];
}

/** The route tables the app's mount is made of; the wiring root (app.ts) builds them once for every mount. */
export type RouteTables = { publicRoutes: readonly ShopRoute[]; adminRoutes: readonly MountableRoute[] };

/** Every route of the app's mount, in the order its OpenAPI document lists them. */
export function merchantRoutes(ctx: AppContext, tables: RouteTables): ShopScopedRoute[] {
  const adminShopRoutes = tables.adminRoutes.filter(
    (route): route is ShopScopedRoute => route.scope === 'shop' && !OPERATOR_ONLY_OPERATIONS.has(route.operationId),
  );
  return [...sessionRoutes(ctx), ...tables.publicRoutes, ...adminShopRoutes];
}
