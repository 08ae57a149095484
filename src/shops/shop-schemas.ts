/** Admin API shapes of shops (CONTRACT "Admin API"). */
import { z } from 'zod';
import { CAP_NAMES } from '@gcrs/engine';
import { effectiveCaps, planSchema } from './plans.ts';
import type { PlanCaps } from './plans.ts';
import { resolveShopSettings, lowStockThresholdOf, repairMissingGiftsOf, shopSettingsPatchSchema, storefrontDebugOf } from './settings.ts';
import type { ShopRecord } from './store.ts';
import type { ConnectionStatus } from '../platform/connections.ts';

// ICU's list of ISO 4217 codes; Intl.NumberFormat alone accepts any three letters.
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const isCurrency = (code: string) => CURRENCIES.has(code);

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const currencySchema = z.string().refine(isCurrency, 'Expected an ISO 4217 currency code such as USD');
export const timezoneSchema = z.string().refine(isTimeZone, 'Expected an IANA time zone such as Europe/Paris');
const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Expected a domain such as shop.example.com');

/** `GET /admin/v1/shops`: the operator's list, by creation (ids are time-ordered), one page at a time. */
export const listShopsQuerySchema = z.strictObject({
  domain: domainSchema.optional().meta({ description: 'Only the shop with this domain (an empty list when none)' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().regex(/^shp_[0-9A-Za-z]{1,64}$/, 'Expected the nextCursor of a previous page').optional().meta({ description: 'The `nextCursor` of the previous page' }),
});

export const createShopBodySchema = z.strictObject({
  domain: domainSchema,
  plan: planSchema,
  currency: currencySchema.default('USD'),
  timezone: timezoneSchema.default('UTC'),
});

const capOverride = z.int().min(0).nullable();
export const patchShopBodySchema = z.strictObject({
  plan: planSchema.optional(),
  currency: currencySchema.optional(),
  timezone: timezoneSchema.optional(),
  limits: z.strictObject({ campaigns: capOverride, rules: capOverride, activeCampaigns: capOverride }).partial().optional(),
  settings: shopSettingsPatchSchema.optional(),
});

/** `limits` overrides after a PATCH: a number sets an override, null removes it. */
export function mergeLimits(
  current: ShopRecord['limits'],
  patch: z.infer<typeof patchShopBodySchema>['limits'],
): ShopRecord['limits'] {
  const next = { ...current };
  for (const name of CAP_NAMES) {
    const value = patch?.[name];
    if (value === null) delete next[name];
    else if (value !== undefined) next[name] = value;
  }
  return next;
}

/**
 * The `shop` object of admin responses: caps in force, settings as resolved, and its platform
 * connection as CONTRACT's `platform: { connected, connectedAt, brokenAt }` (never the token).
 *
 * @example presentShop(shop, config.planCaps, await connectionStatus(db, shop.id)).platform; // { connected: false, connectedAt: null, brokenAt: null }
 */
export function presentShop(shop: ShopRecord, planCaps: PlanCaps, connection: ConnectionStatus) {
  const resolved = resolveShopSettings(shop.settings);
  return {
    id: shop.id,
    domain: shop.domain,
    name: shop.name,
    plan: shop.plan,
    currency: shop.currency,
    timezone: shop.timezone,
    limits: effectiveCaps(planCaps, shop.plan, shop.limits),
    limitOverrides: shop.limits,
    settings: {
      ...resolved,
      checkout: { ...resolved.checkout, repairMissingGifts: repairMissingGiftsOf(shop.settings) },
      storefront: { debug: storefrontDebugOf(shop.settings) },
      lowStockThreshold: lowStockThresholdOf(shop.settings),
    },
    createdAt: shop.createdAt.toISOString(),
    updatedAt: shop.updatedAt.toISOString(),
    platform: {
      connected: connection.connected,
      connectedAt: connection.connectedAt?.toISOString() ?? null,
      brokenAt: connection.brokenAt?.toISOString() ?? null,
    },
  };
}

const capsSchema = z.object({ campaigns: z.int(), rules: z.int(), activeCampaigns: z.int() });

/** The `shop` object of admin responses, as {@link presentShop} writes it (documentation only). */
const presentedShopSchema = z.object({
  id: z.string(),
  domain: z.string(),
  name: z.string().nullable().meta({ description: 'The shop\'s name on the platform, read at install; null for a shop the operator created' }),
  plan: planSchema,
  currency: z.string(),
  timezone: z.string(),
  limits: capsSchema.meta({ description: 'The caps in force: the plan\'s, overridden by `limitOverrides`' }),
  limitOverrides: capsSchema.partial().meta({ description: 'The shop\'s own overrides of its plan\'s caps' }),
  settings: z.record(z.string(), z.unknown()).meta({ description: 'Shop settings as resolved, defaults filled in' }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  platform: z
    .object({
      connected: z.boolean().meta({ description: 'The shop has an Admin API access token (installed, or set by the operator)' }),
      connectedAt: z.iso.datetime().nullable(),
      brokenAt: z.iso.datetime().nullable().meta({ description: 'When the platform last refused the token (401, or the app was uninstalled); null while it works' }),
    })
    .meta({ description: 'The shop\'s platform connection (GET …/platform-connection has the details and the catalog import)' }),
});

export const shopResponseSchema = z.object({ shop: presentedShopSchema });

export const shopListResponseSchema = z.object({
  shops: z.array(presentedShopSchema),
  nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }),
});
