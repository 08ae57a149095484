/**
 * The merchant admin (CONTRACT "Merchant admin", docs/merchant-admin.md): the third mount of the
 * route table under `/app/api/v1` behind the app's session resolver, its OpenAPI document, the
 * login-link landing `/app/login`, and the served app at `/app/`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerDocumentRoute } from '../http/openapi-routes.ts';
import { mountRoutes } from '../http/shop-routes.ts';
import { merchantRoutes, sessionCookie } from './routes.ts';
import type { RouteTables } from './routes.ts';
import { consumeLoginLink, createSession, peekLoginLink, SESSION_ABSOLUTE_MS } from './sessions.ts';
import { frameAncestors } from './embedding.ts';
import { escapeHtml, plainPage } from './plain-page.ts';
import { registerAppAssets } from './static.ts';

export const APP_API_PREFIX = '/app/api/v1';

/** The page a failed login link lands on: says why and what to do, in the app's look. */
export function signInProblemPage(title: string, detail: string): string {
  return plainPage(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>
<p>Ask for a new link: <code>npm run cli -- shop:login-link &lt;shopId&gt;</code></p>`,
  );
}

/**
 * The page a valid login link opens: a form that POSTs the token, submitted at once by the
 * browser. A link preview (chat unfurlers, mail scanners) fetches the URL without running it,
 * so it no longer spends the link; a person's browser signs in as before, in one step.
 */
export function signInFormPage(token: string): string {
  return plainPage(
    'Signing in',
    `<h1>Signing in to Gift campaigns</h1>
<form method="post" action="/app/login"><input type="hidden" name="token" value="${escapeHtml(token)}">
<p>This link signs you in once. If nothing happens, press the button.</p><button type="submit">Sign in</button></form>
<script>document.forms[0].submit()</script>`,
  );
}

function problem(reply: FastifyReply, status: number, title: string, detail: string) {
  // Not rendered in the platform's admin: framed by no one (docs/merchant-admin.md "Embedded").
  return reply.code(status).header('Content-Security-Policy', frameAncestors(undefined)).type('text/html; charset=utf-8').send(signInProblemPage(title, detail));
}

/**
 * Registers the merchant admin on `app`; call before the 405 filler.
 *
 * @example await registerMerchantAdmin(app, ctx, { publicRoutes: publicShopRoutes(ctx), adminRoutes: adminOnlyRoutes(ctx) });
 */
export async function registerMerchantAdmin(app: FastifyInstance, ctx: AppContext, tables: RouteTables): Promise<void> {
  const routes = merchantRoutes(ctx, tables);
  const secure = ctx.config.publicUrl.startsWith('https:');
  const { platformAppKey: appKey, platformAppSecret: appSecret } = ctx.config;
  // A session token of a shop not installed yet installs it (docs/install.md).
  const installer = ctx.installer;

  mountRoutes(app, routes, {
    shopPrefix: APP_API_PREFIX,
    // The merchant changes the shop through its admin surface: webhooks say `admin` (docs/merchant-admin.md).
    trigger: 'admin',
    resolveShop: ctx.resolvers.appSession,
  });
  registerDocumentRoute(app, `${APP_API_PREFIX}/openapi.json`, (builders) => builders.buildAppOpenApiDocument(routes));

  const refused = (reply: FastifyReply, result: { reason: 'invalid' | 'expired' | 'used' }) => {
    const [title, detail] =
      result.reason === 'used'
        ? ['This sign-in link was already used', 'Each link signs in once. If that was not you, tell the shop\'s operator.']
        : result.reason === 'expired'
          ? ['This sign-in link has expired', 'Links are valid for 15 minutes.']
          : ['This sign-in link is not valid', 'The link is not one this service made. Copy the whole link the command printed.'];
    return problem(reply, result.reason === 'invalid' ? 400 : 410, title, detail);
  };
  const incomplete = (reply: FastifyReply) =>
    problem(reply, 400, 'This sign-in link is incomplete', 'The link has no token. Copy the whole link the command printed.');

  // Opening the link (GET) says whether it can sign in and hands the token to a form; only the
  // form's POST uses it (docs/merchant-admin.md "Login links").
  app.get<{ Querystring: { token?: unknown } }>('/app/login', async (request, reply) => {
    // The token is in the URL: keep it out of caches and of the next page's Referer.
    reply.headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    const token = request.query.token;
    if (typeof token !== 'string' || token === '') return incomplete(reply);
    const state = await peekLoginLink(ctx.db, token, ctx.now());
    if (!state.ok) return refused(reply, state);
    return reply.header('Content-Security-Policy', frameAncestors(undefined)).type('text/html; charset=utf-8').send(signInFormPage(token));
  });

  await app.register(async (scope) => {
    // The sign-in form's body; this scope's only route, so no other route takes form bodies.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post<{ Body: { token?: unknown } | undefined }>('/app/login', async (request, reply) => {
      reply.headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      const token = typeof request.body === 'object' && request.body !== null ? request.body.token : undefined;
      if (typeof token !== 'string' || token === '') return incomplete(reply);
      const result = await consumeLoginLink(ctx.db, token, ctx.now());
      if (!result.ok) return refused(reply, result);
      const session = await createSession(ctx.db, result.shopId, ctx.now());
      request.log.info({ shopId: result.shopId }, 'merchant admin session opened');
      reply.header('Set-Cookie', sessionCookie(session.value, { secure, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 }));
      return reply.code(303).header('Location', '/app/').send();
    });
  });

  registerAppAssets(app, { db: ctx.db, appKey, appSecret, ...(installer ? { installer } : {}) });
}
