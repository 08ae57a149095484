/**
 * Admin API: `POST /admin/v1/shops/:shopId/login-links`, how the operator's ADMIN_TOKEN opens any
 * shop's merchant admin (the CLI's `shop:login-link` does the same without HTTP).
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { createLoginLink } from './sessions.ts';

const loginLinkSchema = z.object({
  url: z.string().meta({ description: 'Open it in a browser within 15 minutes; it works once' }),
  expiresAt: z.string(),
});

export function loginLinkAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/login-links',
      operationId: 'createLoginLink',
      summary: "Create a one-time login link to the shop's merchant admin",
      description: 'Valid 15 minutes, usable once; it opens a cookie session of this shop at `/app/`.',
      tag: 'Sign-in',
      responses: { 201: { description: 'The link', schema: loginLinkSchema } },
      handler: async ({ shop, reply }) => reply.code(201).send(await loginLinkFor(ctx, shop.id)),
    }),
  ];
}

/** A new login link of the shop, as a URL under the service's public base URL. */
export async function loginLinkFor(ctx: Pick<AppContext, 'db' | 'config' | 'now'>, shopId: string): Promise<{ url: string; expiresAt: string }> {
  const { token, expiresAt } = await createLoginLink(ctx.db, shopId, ctx.now());
  return { url: `${ctx.config.publicUrl}/app/login?token=${token}`, expiresAt: expiresAt.toISOString() };
}
