/**
 * What `npm run dev:local` does as the merchant and the operator once the shop is installed:
 * reads the shop through the merchant's API with a session token (as App Bridge's embedded
 * admin does), asks the operator's API for a sign-in link (a browser outside the platform's
 * admin has no App Bridge), and seeds the demo campaign and widgets through the merchant's API.
 */
import type { Plan } from '../storefront/seed.ts';
import { DEMO_GIFT_VARIANT_ID, DEMO_THRESHOLD_CENTS, demoWidgets, subtotalGiftCampaign } from '../storefront/seed.ts';
import { devSessionToken } from './settings.ts';

type Json = Record<string, unknown>;

export type MerchantApi = { serviceUrl: string; domain: string; adminToken: string };

async function call(url: string, authorization: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(url, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

/** One call of `/app/api/v1` as the shop's embedded admin; a non-2xx throws with the body. */
export async function merchantCall(api: MerchantApi, method: string, path: string, body?: unknown): Promise<Json> {
  const { status, json } = await call(`${api.serviceUrl}/app/api/v1${path}`, `Bearer ${devSessionToken(api.domain)}`, method, body);
  if (status >= 300) throw new Error(`${method} /app/api/v1${path} answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

/** The signed-in shop: its id and plan. */
export async function shopOf(api: MerchantApi): Promise<{ id: string; plan: Plan }> {
  const { shop } = (await merchantCall(api, 'GET', '/session')) as { shop: { id: string; plan: Plan } };
  return shop;
}

/** A one-time sign-in link to the merchant admin (operator's API, ADMIN_TOKEN). */
export async function loginLink(api: MerchantApi, shopId: string): Promise<string> {
  const { status, json } = await call(`${api.serviceUrl}/admin/v1/shops/${shopId}/login-links`, `Bearer ${api.adminToken}`, 'POST');
  if (status !== 201) throw new Error(`login link answered ${status}: ${JSON.stringify(json)}`);
  return String(json.url);
}

/**
 * "Spend $50, get the Enamel Mug" imported and enabled, and the widgets on. Enabling checks
 * the gift against the catalog, which the install's import fills in the background: it is
 * retried (every `retryMs`, `attempts` times) until the import has stored the mug.
 */
export async function seedCampaign(api: MerchantApi, options: { attempts?: number; retryMs?: number; stopped?: () => boolean } = {}): Promise<string> {
  const imported = (await merchantCall(api, 'POST', '/campaigns/import', {
    campaigns: [subtotalGiftCampaign('Spend $50, get a mug', DEMO_THRESHOLD_CENTS, [DEMO_GIFT_VARIANT_ID])],
  })) as { campaignIds: string[] };
  const campaignId = imported.campaignIds[0];
  if (campaignId === undefined) throw new Error('the import returned no campaign id');
  const attempts = options.attempts ?? 60;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await merchantCall(api, 'POST', `/campaigns/${campaignId}/enable`);
      break;
    } catch (error) {
      if (attempt >= attempts || options.stopped?.()) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1000));
    }
  }
  await merchantCall(api, 'PUT', '/widgets', demoWidgets(DEMO_THRESHOLD_CENTS));
  return campaignId;
}
