/**
 * Using a merchant-admin login link the way a browser does (docs/merchant-admin.md "Login
 * links"): GET the link (a page whose form carries the token), then POST that form.
 */
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';

/**
 * POSTs the sign-in form of `token` (what the link's page submits).
 *
 * @example const res = await submitLoginLink(t.app, token); // 303 to /app/ with the cookie
 */
export function submitLoginLink(app: FastifyInstance, token: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/app/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
}

/**
 * Opens `url` (a path with `?token=` or a whole link) as a browser would: the page, then its
 * form. Returns the form's answer; throws when the page is not the sign-in form.
 *
 * @example const res = await openLoginLink(t.app, url); // res.headers['set-cookie']
 */
export async function openLoginLink(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  const { pathname, search, searchParams } = new URL(url, 'http://localhost');
  const page = await app.inject({ method: 'GET', url: pathname + search });
  if (page.statusCode !== 200) throw new Error(`the link's page answered ${page.statusCode}: ${page.body.slice(0, 200)}`);
  return submitLoginLink(app, searchParams.get('token') ?? '');
}
