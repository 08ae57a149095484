/**
 * The developer's way into the stand-in "admin" (not a platform route): `GET /open-app`
 * answers a redirect to the app's embedded load, `{PUBLIC_URL}/app/?embedded=1&host=…&id_token=…
 * &shop=…&timestamp=…&hmac=…`, signed afresh at each visit (a session token lives one minute;
 * `hmac` is the hex HMAC-SHA256 of the sorted query), as the platform's admin opens an app.
 */
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { signSessionToken } from '../../src/merchant-admin/session-token.ts';
import type { StandinRoute } from './standin.ts';

export type OpenAppOptions = { appKey: string; appSecret: string; publicUrl: string; domain: string };

/** The platform's session token for `domain`, valid one minute. */
export function sessionTokenFor(options: Omit<OpenAppOptions, 'publicUrl'>): string {
  const now = Math.floor(Date.now() / 1000);
  const { domain } = options;
  return signSessionToken(
    { iss: `https://${domain}/admin`, dest: `https://${domain}`, aud: options.appKey, sub: '1', exp: now + 60, nbf: now - 1, iat: now, jti: `${now}-${Math.random()}` },
    options.appSecret,
  );
}

/** The admin's signed load of the app. */
export function embeddedLoadUrl(options: OpenAppOptions): string {
  const { domain } = options;
  const params: Record<string, string> = {
    embedded: '1',
    host: Buffer.from(`admin.shopify.com/store/${domain.split('.')[0] ?? domain}`).toString('base64url'),
    id_token: sessionTokenFor(options),
    shop: domain,
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const message = Object.keys(params).sort().map((name) => `${name}=${params[name]}`).join('&');
  const hmac = createHmac('sha256', options.appSecret).update(message).digest('hex');
  return `${options.publicUrl.replace(/\/+$/, '')}/app/?${new URLSearchParams({ ...params, hmac }).toString()}`;
}

/** @example startPlatformStandin({ …, routes: [openAppRoute({ appKey, appSecret, publicUrl, domain })] }) */
export function openAppRoute(options: OpenAppOptions): StandinRoute {
  return {
    method: 'GET',
    path: '/open-app',
    handle: (_request: unknown, _body: Buffer, response: ServerResponse) => {
      response.writeHead(302, { location: embeddedLoadUrl(options), 'cache-control': 'no-store' });
      response.end();
    },
  };
}
