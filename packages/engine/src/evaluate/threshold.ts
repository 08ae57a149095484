// Threshold resolution, SPEC "cart.subtotal_gte": first hit wins, (1) marketOverrides of
// the active market, (2) currencyOverrides of the cart currency, (3) value, only in the
// base currency. Keys compare case-insensitively (market handles lowercased, currency
// codes uppercased), like market.handle_in does. A module of its own, without the outcome
// table: the storefront's progress bar resolves a rule's threshold for the shopper's cart
// exactly as the rule does, in a chunk that must stay small.
import { ownEntries } from './leaf-predicate.ts';
import { normaliseCurrency } from './prepare-context.ts';

/** A threshold leaf's fields (leaves/threshold-leaf.ts has its schema; written out here, the leaves import this module). */
export type ThresholdLeaf = { value: number; currencyOverrides?: Record<string, number>; marketOverrides?: Record<string, number> };

/** Where a threshold is resolved: the cart currency, the base currency (both upper-case) and the market handle (lower-case). */
export type ThresholdPlace = { currency: string; baseCurrency: string; marketHandle: string | undefined };

/**
 * The leaf's threshold candidate for a place, unchecked (the caller fails a negative, NaN or
 * infinite one closed), or undefined when the cart is in a foreign currency without an override.
 *
 * @example thresholdResolver({ type: 'cart.subtotal_gte', value: 5000, currencyOverrides: { EUR: 4500 } })({ currency: 'EUR', baseCurrency: 'USD', marketHandle: undefined }) // 4500
 */
export function thresholdResolver(leaf: ThresholdLeaf): (place: ThresholdPlace) => unknown {
  const markets = new Map<string, unknown>();
  for (const [handle, amount] of ownEntries(leaf.marketOverrides)) {
    const key = handle.trim().toLowerCase();
    if (!markets.has(key)) markets.set(key, amount);
  }
  const currencies = new Map<string, unknown>();
  for (const [code, amount] of ownEntries(leaf.currencyOverrides)) {
    const key = normaliseCurrency(code);
    if (!currencies.has(key)) currencies.set(key, amount);
  }
  const value: unknown = leaf.value;
  return (place) => {
    if (place.marketHandle !== undefined && markets.has(place.marketHandle)) return markets.get(place.marketHandle);
    if (currencies.has(place.currency)) return currencies.get(place.currency);
    return place.currency === place.baseCurrency ? value : undefined;
  };
}
