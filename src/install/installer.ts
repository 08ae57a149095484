/**
 * Where install meets the merchant admin (docs/install.md "The flow"): the session-token sign-in
 * of `/app/api/v1` (auth.ts) and the embedded load `/app/?shop=…&host=…&embedded=1&id_token=…`
 * (static.ts) both go through here. A failed install is never a 5xx: an API call gets a 4xx JSON
 * error (401 refused, 429 throttled with `Retry-After`, 409 the platform did not answer as its
 * schema says — try again), the embedded load a readable page with the same status.
 */
import { ApiError, unauthorized } from '../http/errors.ts';
import type { ShopRecord } from '../shops/store.ts';
import { getShopByDomain } from '../shops/store.ts';
import { verifySessionToken } from '../merchant-admin/session-token.ts';
import { ensureInstalled } from './install.ts';
import type { InstallDeps, InstallOutcome } from './install.ts';

/** A readable refusal of an embedded load. */
export type LoadRefusal = { status: number; title: string; detail: string; headers: Record<string, string>; frameShop: string | undefined };

export type Installer = {
  /** The shop of a verified session token, installed first when it needs to be; throws a 4xx ApiError. */
  shopForSessionToken(domain: string, token: string): Promise<ShopRecord | undefined>;
  /** Installs on an embedded load carrying `id_token`; a refusal to render, or undefined to go on. */
  onEmbeddedLoad(query: unknown): Promise<LoadRefusal | undefined>;
};

const retryHeaders = (ms: number | undefined): Record<string, string> => (ms === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) });

function failure(outcome: Extract<InstallOutcome, { ok: false }>): { status: number; title: string; detail: string; headers: Record<string, string> } {
  if (outcome.kind === 'refused') {
    return { status: 401, title: 'The platform refused to install the app', detail: `The platform did not accept this session for the shop (${outcome.detail}). Open the app again from your store's admin.`, headers: {} };
  }
  if (outcome.retryAfterMs !== undefined) {
    return { status: 429, title: 'The platform is busy', detail: 'The platform asked us to slow down while installing the app. Nothing was installed yet; try again in a moment.', headers: retryHeaders(outcome.retryAfterMs) };
  }
  return { status: 409, title: 'The app could not be installed yet', detail: `The platform did not answer as expected (${outcome.detail}). Nothing was installed; try again in a moment.`, headers: {} };
}

/** @example const installer = createInstaller({ db, logger, appKey, appSecret, adminApiUrl, functionId, now }); */
export function createInstaller(deps: InstallDeps): Installer {
  return {
    async shopForSessionToken(domain, token) {
      const outcome = await ensureInstalled(deps, domain, token);
      if (outcome.ok) return outcome.shop;
      const { status, title, detail, headers } = failure(outcome);
      if (status === 401) throw unauthorized(detail);
      if (status === 429) throw new ApiError('rate_limited', { error: title, issue: detail }, headers);
      throw new ApiError('conflict', { error: title, issue: detail });
    },
    async onEmbeddedLoad(query) {
      const params = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
      const token = params.id_token;
      if (typeof token !== 'string') return undefined;
      const verified = await verifySessionToken(token, { appKey: deps.appKey, appSecret: deps.appSecret, nowMs: deps.now().getTime() });
      if (!verified) {
        // Never an exchange for a token that does not verify. A shop already here reloads as
        // before (App Bridge gives the app fresh tokens); an unknown one is told to reopen the app.
        const shop = typeof params.shop === 'string' ? await getShopByDomain(deps.db, params.shop) : undefined;
        if (shop) return undefined;
        return { status: 401, title: 'This session has expired', detail: 'Open the app again from your store\'s admin to install it.', headers: {}, frameShop: undefined };
      }
      const outcome = await ensureInstalled(deps, verified.shopDomain, token);
      if (outcome.ok) return undefined;
      return { ...failure(outcome), frameShop: verified.shopDomain };
    },
  };
}
