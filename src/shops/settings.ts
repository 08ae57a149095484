/**
 * Shop settings: the admin stores a partial `shopSettings` (SPEC "Rules payload") plus
 * `lowStockThreshold`; readers get it merged over the defaults below.
 */
import { stackingSchema, textSchema } from '@gcrs/engine';
import type { ResolvedShopSettings } from '@gcrs/engine';
import { z } from 'zod';

/** What a shop gets before its admin changes anything (written down in docs/decisions.md). */
export const DEFAULT_SHOP_SETTINGS = {
  engine: { runOnExpressCheckout: true, runOnCartSubmission: true, useDiscountedPrices: false, evaluationDelay: 0, stacking: 'all' },
  checkout: { blockZeroValueCart: false, blockGiftOnlyCarts: true, stripZeroPriceItems: false },
  data: { collectCartTokens: true },
} as const satisfies ResolvedShopSettings;
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;
export const DEFAULT_MIN_ORDER_TOTAL_MESSAGE = 'Your order does not reach the minimum total for free gifts.';

/** PATCH /shops/:shopId `settings`: every field optional; `null` turns the minimum-total guard off. */
export const shopSettingsPatchSchema = z
  .object({
    engine: z
      .object({
        runOnExpressCheckout: z.boolean(),
        runOnCartSubmission: z.boolean(),
        useDiscountedPrices: z.boolean(),
        evaluationDelay: z.int().min(0).max(60_000),
        stacking: stackingSchema.meta({ description: '`all`: every matching rule gives; `highest_tier`: per campaign only its highest (docs/promotions.md)' }),
      })
      .partial()
      .strict(),
    checkout: z
      .object({
        blockZeroValueCart: z.boolean(),
        blockGiftOnlyCarts: z.boolean(),
        stripZeroPriceItems: z.boolean(),
        minOrderTotalCents: z.int().min(0).nullable(),
        minOrderTotalMessage: textSchema.max(500).nullable(),
        /** CONTRACT part three "Refunds and repairs": add a live auto_add rule's missing gift to a paid order (docs/repairs.md). */
        repairMissingGifts: z.boolean(),
      })
      .partial()
      .strict(),
    data: z.object({ collectCartTokens: z.boolean() }).partial().strict(),
    /** CONTRACT "Storefront": `debugAllowed` of the storefront's rules payload (`?svc_debug=1` traces). */
    storefront: z.object({ debug: z.boolean() }).partial().strict(),
    lowStockThreshold: z.int().min(0),
  })
  .partial()
  .strict();

export type ShopSettingsPatch = z.infer<typeof shopSettingsPatchSchema>;
export type StoredShopSettings = ShopSettingsPatch;

/** Applies a PATCH to the stored settings; a `null` guard field removes it. */
export function mergeShopSettings(stored: StoredShopSettings, patch: ShopSettingsPatch): StoredShopSettings {
  const merged: StoredShopSettings = {
    ...stored,
    ...(patch.lowStockThreshold === undefined ? {} : { lowStockThreshold: patch.lowStockThreshold }),
  };
  if (patch.engine) merged.engine = { ...stored.engine, ...patch.engine };
  if (patch.data) merged.data = { ...stored.data, ...patch.data };
  if (patch.storefront) merged.storefront = { ...stored.storefront, ...patch.storefront };
  if (patch.checkout) merged.checkout = { ...stored.checkout, ...patch.checkout };
  return merged;
}

/**
 * The shopSettings object of the rules payload: defaults, then the admin's values; the
 * minimum-order-total keys only while the guard is set (SPEC "Rules payload").
 *
 * @example
 *   resolveShopSettings({}).checkout; // { blockZeroValueCart: false, blockGiftOnlyCarts: true, stripZeroPriceItems: false }
 */
export function resolveShopSettings(stored: StoredShopSettings): ResolvedShopSettings {
  // repairMissingGifts is the server's alone (order repairs), not a storefront setting: not in the payload.
  const { minOrderTotalCents, minOrderTotalMessage, repairMissingGifts: _server, ...checkoutFlags } = stored.checkout ?? {};
  const checkout: ResolvedShopSettings['checkout'] = { ...DEFAULT_SHOP_SETTINGS.checkout, ...checkoutFlags };
  if (typeof minOrderTotalCents === 'number') {
    checkout.minOrderTotalCents = minOrderTotalCents;
    checkout.minOrderTotalMessage = minOrderTotalMessage ?? DEFAULT_MIN_ORDER_TOTAL_MESSAGE;
  }
  return {
    engine: { ...DEFAULT_SHOP_SETTINGS.engine, ...stored.engine },
    checkout,
    data: { ...DEFAULT_SHOP_SETTINGS.data, ...stored.data },
  };
}

/** The shop setting `storefront.debug` (default false): whether storefronts may show evaluation traces. */
export const storefrontDebugOf = (stored: StoredShopSettings): boolean => stored.storefront?.debug ?? false;

/**
 * The shop setting `checkout.repairMissingGifts` (default true): whether `orders/paid` repairs a
 * missing auto-add gift with the platform's order editing (docs/repairs.md).
 *
 * @example repairMissingGiftsOf({}); // true
 */
export const repairMissingGiftsOf = (stored: StoredShopSettings): boolean => stored.checkout?.repairMissingGifts ?? true;

export const lowStockThresholdOf = (stored: StoredShopSettings): number =>
  stored.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD;
