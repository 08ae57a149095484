/**
 * The app's API client: openapi-fetch typed by `schema.d.ts`, which `npm run app:types`
 * generates from the mount's OpenAPI document. Embedded in the platform's admin, each call
 * carries the platform's session token (App Bridge's `shopify.idToken()`); standalone, the
 * session cookie travels by itself and state-changing calls add the session's CSRF token.
 */
import createClient from 'openapi-fetch';
import type { Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type Session = paths['/app/api/v1/session']['get']['responses'][200]['content']['application/json'];
export type CampaignListItem = paths['/app/api/v1/campaigns']['get']['responses'][200]['content']['application/json']['campaigns'][number];
export type HealthWarning = paths['/app/api/v1/campaigns/{id}/enable']['post']['responses'][409]['content']['application/json']['warnings'][number];
export type ApiKey = paths['/app/api/v1/api-keys']['get']['responses'][200]['content']['application/json']['apiKeys'][number];
export type ApiError = components['schemas']['Error'];
export type SimulateResult = paths['/app/api/v1/simulate']['post']['responses'][200]['content']['application/json'];
export type TraceNode = components['schemas']['ConditionTrace'];
export type Widgets = paths['/app/api/v1/widgets']['get']['responses'][200]['content']['application/json']['widgets'];

declare global {
  interface Window {
    /** App Bridge, present when the app runs embedded in the platform's admin. */
    shopify?: { idToken?: () => Promise<string> };
  }
}

let csrfToken: string | undefined;

const auth: Middleware = {
  async onRequest({ request }) {
    const idToken = window.shopify?.idToken;
    if (idToken) request.headers.set('Authorization', `Bearer ${await idToken()}`);
    else if (csrfToken && request.method !== 'GET') request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(auth);

/** Reads the session (and keeps its CSRF token for later calls); undefined when signed out. */
export async function loadSession(): Promise<Session | undefined> {
  const { data, response } = await api.GET('/app/api/v1/session');
  if (response.status === 401) return undefined;
  if (!data) throw new Error(`The session could not be read (HTTP ${response.status})`);
  csrfToken = data.csrfToken;
  return data;
}

/** The `error` text of a failed call, for people. */
export function errorText(error: unknown, fallback = 'Something went wrong'): string {
  if (typeof error === 'object' && error !== null && 'error' in error && typeof error.error === 'string') return error.error;
  return fallback;
}
