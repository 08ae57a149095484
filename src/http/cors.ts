/**
 * CORS, decided: the public API (`/api/v1`) and the admin API (`/admin/v1`) are
 * server-to-server and send no `Access-Control-Allow-*` header, ever. An API key or the admin
 * token in a web page is a full-access secret handed to every visitor, so a browser must not
 * be able to call them. Requests with `Authorization` are never "simple" (Fetch standard), so
 * a browser always sends a preflight first; that preflight gets a 405 naming the reason and no
 * CORS headers, and the browser then refuses the real request. Browser code uses the
 * storefront routes (CONTRACT part two), which answer CORS for a token's allowed origins.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/** A CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method` (Fetch standard). */
export const isCorsPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' &&
  request.headers.origin !== undefined &&
  request.headers['access-control-request-method'] !== undefined;

/**
 * The answer to a preflight on a server-to-server path: the path's 405, with a sentence a
 * developer reading the browser's network panel can act on.
 *
 * @example
 *   if (isCorsPreflight(request)) throw corsPreflightRefused(['GET', 'POST']);
 */
export function corsPreflightRefused(allow: readonly string[]): ApiError {
  return new ApiError(
    'method_not_allowed',
    {
      error: 'Method not allowed',
      issue:
        'Browsers may not call this API (no CORS): it is server-to-server, and an API key in a web page is a ' +
        'full-access secret. Call it from your server; browser code uses the storefront routes.',
    },
    { Allow: allow.join(', ') },
  );
}
