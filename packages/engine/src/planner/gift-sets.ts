import type { PreparedContext } from '../evaluate/prepare-context.ts';
import { normaliseCurrency } from '../evaluate/prepare-context.ts';
import type { GiftPer } from '../schema/gift-config.ts';

/**
 * How many gift sets a repeatable gift gives for one cart, and why: `counted` is what was
 * counted (non-gift items, or the non-gift subtotal in the cart's minor units), `every` the
 * step that applied, `capped` whether `max` cut it. `reason` is a short code.
 */
export type GiftSets = {
  sets: number;
  of: GiftPer['of'];
  every: number;
  max: number;
  counted: number;
  capped: boolean;
  reason: 'per_sets' | 'per_sets_capped' | 'per_below_every' | 'foreign_currency_no_override';
};

/**
 * `min(max, floor(counted / every))`, counted over the non-gift lines (gift lines never count,
 * so a gift cannot earn more gifts). A subtotal step resolves like a threshold (SPEC
 * "cart.subtotal_gte"): the cart currency's `currencyOverrides` entry, else `every` when the
 * cart is in the base currency, else no set (fail closed). The planner and the checkout
 * function both call this, so the storefront adds exactly what the checkout discounts.
 *
 * @example giftSets({ every: 3, of: 'items', max: 2 }, prepared) // 7 items: { sets: 2, capped: true, ... }
 */
export function giftSets(per: GiftPer, prepared: PreparedContext): GiftSets {
  let every: number | undefined = per.every;
  if (per.of === 'subtotal') every = subtotalStep(per, prepared);
  const base = { of: per.of, max: per.max };
  if (every === undefined) return { ...base, sets: 0, every: per.every, counted: prepared.subtotal, capped: false, reason: 'foreign_currency_no_override' };
  const counted = per.of === 'items' ? prepared.itemCount : prepared.subtotal;
  const earned = Number.isFinite(counted) && counted > 0 ? Math.floor(counted / every) : 0;
  const sets = Math.min(earned, per.max);
  const capped = earned > per.max;
  const reason = sets === 0 ? 'per_below_every' : capped ? 'per_sets_capped' : 'per_sets';
  return { ...base, sets, every, counted, capped, reason };
}

function subtotalStep(per: GiftPer, prepared: PreparedContext): number | undefined {
  for (const [code, amount] of Object.entries(per.currencyOverrides ?? {})) {
    if (normaliseCurrency(code) === prepared.currency) return amount;
  }
  return prepared.currency === prepared.baseCurrency ? per.every : undefined;
}
