/**
 * The stand-in platform's install family (docs/install.md "The stand-in platform"): the token
 * exchange and the `shop` query.
 *
 * `POST /admin/oauth/access_token` answers as the platform's OAuth token endpoint does for a
 * token exchange: a form or JSON body with `client_id`, `client_secret`, `grant_type`
 * `urn:ietf:params:oauth:grant-type:token-exchange`, `subject_token` (the session token: HS256 with
 * the app secret, `aud` the client id, `dest` the shop), `subject_token_type`
 * `urn:ietf:params:oauth:token-type:id_token` and `requested_token_type`; it answers
 * `{ access_token, scope }` for an offline token, and 400 `{ error, error_description }` —
 * `invalid_client`, `invalid_subject_token`, `invalid_request` — otherwise. The shop must be one
 * the stand-in knows (addShop): installing on a store that does not exist is refused too.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createFaults, withFaults } from './faults.ts';
import type { Faults } from './faults.ts';
import { answerRoot } from './selection.ts';
import type { OperationFamily, StandinPlatform, StandinRoute, StandinShop } from './standin.ts';

export const TOKEN_EXCHANGE_PATH = '/admin/oauth/access_token';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const OFFLINE = 'urn:shopify:params:oauth:token-type:offline-access-token';
const ONLINE = 'urn:shopify:params:oauth:token-type:online-access-token';

export type InstallOptions = { appKey: string; appSecret: string; scopes?: string };

export type TokenExchange = { shop: string; status: number; error?: string; accessToken?: string };

export type InstallFamily = {
  family: OperationFamily;
  route: StandinRoute;
  faults: Faults;
  /** Faults of the token endpoint (the family's faults are the `shop` query's). */
  exchangeFaults: Faults;
  /** Every exchange, refused or not, in order. */
  exchanges: TokenExchange[];
  /** Connects the route to the platform's shops (after startStandinPlatform). */
  attach(platform: StandinPlatform): void;
};

function refuse(response: ServerResponse, error: string, description: string): void {
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error, error_description: description }));
}

/** The shop domain a session token names, or a reason it is not one this app's secret signed and still valid. */
function subjectShop(token: string, options: InstallOptions): { shop: string } | { reason: string } {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const expected = createHmac('sha256', options.appSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { reason: 'signature' };
  let claims: { aud?: unknown; dest?: unknown; exp?: unknown; nbf?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { reason: 'payload' };
  }
  const now = Date.now() / 1000;
  if (claims.aud !== options.appKey) return { reason: 'audience' };
  if (typeof claims.exp !== 'number' || claims.exp < now) return { reason: 'expired' };
  if (typeof claims.nbf === 'number' && claims.nbf > now + 5) return { reason: 'not yet valid' };
  if (typeof claims.dest !== 'string' || !URL.canParse(claims.dest)) return { reason: 'dest' };
  return { shop: new URL(claims.dest).hostname };
}

function bodyOf(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (contentType?.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/**
 * @example
 *   const install = createInstallFamily({ appKey, appSecret });
 *   const platform = await startStandinPlatform({ families: [install.family], routes: [install.route] });
 *   install.attach(platform);
 */
export function createInstallFamily(options: InstallOptions): InstallFamily {
  const faults = createFaults();
  const exchangeFaults = createFaults();
  const exchanges: TokenExchange[] = [];
  let shops: Map<string, StandinShop> | undefined;
  const scope = options.scopes ?? 'read_products,read_inventory,write_discounts';

  const route: StandinRoute = {
    method: 'POST',
    path: TOKEN_EXCHANGE_PATH,
    handle(request, raw, response) {
      const body = bodyOf(raw, request.headers['content-type']);
      const subject = typeof body.subject_token === 'string' ? body.subject_token : '';
      const named = subjectShop(subject, options);
      const record: TokenExchange = { shop: 'shop' in named ? named.shop : '', status: 400 };
      exchanges.push(record);
      const fault = exchangeFaults.take();
      if (fault?.kind === 'throttled') {
        record.status = 429;
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(fault.retryAfterSeconds) });
        return void response.end(JSON.stringify({ errors: 'Exceeded rate limit' }));
      }
      if (fault?.kind === 'outage') {
        record.status = fault.status;
        response.writeHead(fault.status, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ errors: 'Internal Server Error' }));
      }
      if (body.client_id !== options.appKey || body.client_secret !== options.appSecret) {
        record.error = 'invalid_client';
        return refuse(response, 'invalid_client', 'Client authentication failed');
      }
      if (body.grant_type !== GRANT_TYPE || body.subject_token_type !== ID_TOKEN_TYPE || ![OFFLINE, ONLINE].includes(String(body.requested_token_type))) {
        record.error = 'invalid_request';
        return refuse(response, 'invalid_request', 'Unsupported grant_type, subject_token_type or requested_token_type');
      }
      const shop = 'shop' in named ? shops?.get(named.shop) : undefined;
      if (shop === undefined) {
        record.error = 'invalid_subject_token';
        return refuse(response, 'invalid_subject_token', `Session token is invalid: ${'reason' in named ? named.reason : 'unknown shop'}`);
      }
      const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
      shop.accessTokens.add(accessToken);
      Object.assign(record, { status: 200, accessToken });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: accessToken, scope }));
    },
  };

  const family: OperationFamily = {
    rootFields: ['shop'],
    answer: (call) =>
      withFaults(faults, () => {
        const shop = { name: call.shop.name, currencyCode: call.shop.currencyCode, ianaTimezone: call.shop.ianaTimezone, myshopifyDomain: call.shop.domain };
        return answerRoot(call.operation, { shop }, call.variables);
      }),
  };

  return {
    family,
    route,
    faults,
    exchangeFaults,
    exchanges,
    attach(platform) {
      shops = platform.shops;
    },
  };
}
