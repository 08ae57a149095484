/**
 * threshold.ts for the storefront bundle (packages/storefront/scripts/build-script.ts): the same
 * resolver, first hit wins, reading the leaf's override lists on each call instead of building
 * two maps when the leaf compiles (a page resolves a few thresholds a few times). Held to
 * threshold.ts by test/storefront-stand-ins.test.ts.
 */
import type { ThresholdLeaf, ThresholdPlace } from './threshold.ts';
import { ownEntries } from './leaf-predicate.ts';
import { normaliseCurrency } from './prepare-context.ts';

export type { ThresholdPlace };

/**
 * @example thresholdResolver({ type: 'cart.subtotal_gte', value: 5000 })({ currency: 'USD', baseCurrency: 'USD', marketHandle: undefined }) // 5000
 */
export function thresholdResolver(leaf: ThresholdLeaf): (place: ThresholdPlace) => unknown {
  return (place) => {
    const market = place.marketHandle === undefined ? undefined : ownEntries(leaf.marketOverrides).find(([handle]) => handle.trim().toLowerCase() === place.marketHandle);
    const override = market ?? ownEntries(leaf.currencyOverrides).find(([code]) => normaliseCurrency(code) === place.currency);
    if (override !== undefined) return override[1];
    return place.currency === place.baseCurrency ? leaf.value : undefined;
  };
}
