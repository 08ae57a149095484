/**
 * Shop settings: the admin stores a partial `shopSettings` (SPEC "Rules payload") plus
 * `lowStockThreshold`; readers get it merged over the defaults below.
 */
import { shopSettingsPatchSchema } from '@gcrs/engine';
import type { ResolvedShopSettings, ShopSettingsPatch, StoredShopSettings } from '@gcrs/engine';

/** What a shop gets before its admin changes anything (written down in docs/decisions.md). */
export const DEFAULT_SHOP_SETTINGS = {
  engine: { runOnExpressCheckout: true, runOnCartSubmission: true, useDiscountedPrices: false, evaluationDelay: 0, stacking: 'all' },
  checkout: { blockZeroValueCart: false, blockGiftOnlyCarts: true, stripZeroPriceItems: false },
  data: { collectCartTokens: true },
} as const satisfies ResolvedShopSettings;
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;
export const DEFAULT_MIN_ORDER_TOTAL_MESSAGE = 'Your order does not reach the minimum total for free gifts.';

// The stored shape's one schema is the engine's (the shops table's `settings` column is typed from it).
export { shopSettingsPatchSchema };
export type { ShopSettingsPatch, StoredShopSettings };

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
