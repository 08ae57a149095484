/**
 * Seeds a shop through the service's own admin API (never its database), for
 * `npm run storefront:dev`, the browser tests and `bench:storefront`: the shop, the fixture's
 * catalog, campaigns (imported, then enabled) and widget settings.
 */
import type { StorefrontFixture } from './fixture.ts';
import { gid, toCatalog } from './fixture.ts';

export type Plan = 'free' | 'growth' | 'pro' | 'scale';

type Json = Record<string, unknown>;

/** A thin client of `/admin/v1`: one method per call the seeding needs; any non-2xx throws with the body. */
export class AdminClient {
  readonly #base: string;
  readonly #token: string;

  constructor(serviceUrl: string, adminToken: string) {
    this.#base = serviceUrl;
    this.#token = adminToken;
  }

  async call(method: string, path: string, body?: unknown): Promise<Json> {
    const response = await fetch(new URL(`/admin/v1${path}`, this.#base), {
      method,
      headers: { authorization: `Bearer ${this.#token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /admin/v1${path} answered ${response.status}: ${text}`);
    return text === '' ? {} : (JSON.parse(text) as Json);
  }

  async createShop(domain: string, plan: Plan, currency: string): Promise<string> {
    const { shop } = (await this.call('POST', '/shops', { domain, plan, currency })) as { shop: { id: string } };
    return shop.id;
  }

  setPlan(shopId: string, plan: Plan): Promise<Json> {
    return this.call('PATCH', `/shops/${shopId}`, { plan });
  }

  patchSettings(shopId: string, settings: Json): Promise<Json> {
    return this.call('PATCH', `/shops/${shopId}`, { settings });
  }

  uploadCatalog(shopId: string, fixture: StorefrontFixture): Promise<Json> {
    return this.call('POST', `/shops/${shopId}/catalog`, toCatalog(fixture));
  }

  /** Imports one campaign and enables it (`force` skips the health check, e.g. for a sold-out gift). Returns its id and rule ids. */
  async launchCampaign(shopId: string, campaign: Json, options: { force?: boolean } = {}): Promise<{ campaignId: string; ruleIds: string[] }> {
    const imported = (await this.call('POST', `/shops/${shopId}/campaigns/import`, { campaigns: [campaign] })) as { campaignIds: string[] };
    const campaignId = imported.campaignIds[0];
    if (campaignId === undefined) throw new Error('import returned no campaign id');
    await this.call('POST', `/shops/${shopId}/campaigns/${campaignId}/enable${options.force ? '?force=1' : ''}`);
    const { campaign: stored } = (await this.call('GET', `/shops/${shopId}/campaigns/${campaignId}`)) as { campaign: { rules: { id: string }[] } };
    return { campaignId, ruleIds: stored.rules.map((rule) => rule.id) };
  }

  putWidgets(shopId: string, widgets: Json): Promise<Json> {
    return this.call('PUT', `/shops/${shopId}/widgets`, widgets);
  }
}

/** A campaign whose one rule gives `giftVariantId` (numeric fixture id) once the subtotal reaches `thresholdCents`. */
export function subtotalGiftCampaign(name: string, thresholdCents: number, giftVariantIds: number[], actionType: 'auto_add' | 'customer_choice' = 'auto_add'): Json {
  return {
    name,
    rules: [
      {
        name: `${(thresholdCents / 100).toFixed(0)} or more`,
        conditionTree: { type: 'cart.subtotal_gte', value: thresholdCents },
        giftConfig: { type: 'fixed', gifts: giftVariantIds.map((id) => ({ variantId: gid('ProductVariant', id), quantity: 1 })) },
        options: { actionType, discountTitle: 'Free gift' },
      },
    ],
  };
}

/**
 * Widget settings with the toast, the progress bar, the gift choice and the reminder on. The
 * bar's steps are the live rules' (`thresholdCents` only fills SPEC's `thresholds` field, which
 * the storefront no longer reads).
 */
export function demoWidgets(thresholdCents: number, customCode: { html?: string; css?: string; js?: string } = {}): Json {
  return {
    toast: { enabled: true, position: 'bottom-right', durationMs: 8000 },
    promoPopup: { enabled: false },
    progressBar: {
      enabled: true,
      placement: 'cart_drawer',
      thresholds: [{ amountCents: thresholdCents }],
    },
    giftChoice: { enabled: true },
    reminder: { enabled: true },
    customCode,
  };
}

export const DEMO_THRESHOLD_CENTS = 5000;
export const DEMO_GIFT_VARIANT_ID = 20011;

/**
 * The demo shop of `npm run storefront:dev`: Scale plan, the fixture's catalog, "spend $50, get
 * the Enamel Mug" live, the widgets on, and debug traces allowed.
 */
export async function seedDemoShop(admin: AdminClient, fixture: StorefrontFixture): Promise<{ shopId: string; campaignId: string }> {
  const shopId = await admin.createShop(fixture.shopDomain, 'scale', fixture.currency);
  await admin.uploadCatalog(shopId, fixture);
  const { campaignId } = await admin.launchCampaign(
    shopId,
    subtotalGiftCampaign('Spend $50, get a mug', DEMO_THRESHOLD_CENTS, [DEMO_GIFT_VARIANT_ID]),
  );
  await admin.putWidgets(shopId, demoWidgets(DEMO_THRESHOLD_CENTS));
  // A development shop: `?svc_debug=1` on the storefront logs each evaluation's trace.
  await admin.patchSettings(shopId, { storefront: { debug: true } });
  return { shopId, campaignId };
}
