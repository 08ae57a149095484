import type { LeafOf } from '../schema/leaf-node.ts';
import type { LeafOutcome } from './outcomes.ts';
import * as OUTCOME from './outcome-table.ts';
import type { PreparedContext } from './prepare-context.ts';
import { normaliseCurrency } from './prepare-context.ts';
import type { LeafPredicate } from './leaf-predicate.ts';
import { isValidThreshold, ownEntries } from './leaf-predicate.ts';

type ThresholdLeaf = LeafOf<'cart.subtotal_gte' | 'cart.subtotal_lte' | 'cart.total_gte'>;

// Threshold resolution, SPEC "cart.subtotal_gte": first hit wins, (1) marketOverrides of
// the active market, (2) currencyOverrides of the cart currency, (3) value, only in the
// base currency. Keys compare case-insensitively (market handles lowercased, currency
// codes uppercased), like market.handle_in does. A candidate that is negative, NaN or
// infinite fails closed rather than falling through to the next step.
function compileThreshold(leaf: ThresholdLeaf): (ctx: PreparedContext) => number | LeafOutcome {
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
  return (ctx) => {
    let candidate: unknown;
    if (ctx.marketHandle !== undefined && markets.has(ctx.marketHandle)) {
      candidate = markets.get(ctx.marketHandle);
    } else if (currencies.has(ctx.currency)) {
      candidate = currencies.get(ctx.currency);
    } else if (ctx.currency === ctx.baseCurrency) {
      candidate = value;
    } else {
      return OUTCOME.foreignCurrency;
    }
    return isValidThreshold(candidate) ? candidate : OUTCOME.invalidThreshold;
  };
}

/**
 * `cart.subtotal_gte`: non-gift subtotal >= resolved threshold.
 *
 * @example compileSubtotalGte({ type: 'cart.subtotal_gte', value: 5000 })(prepared).matched
 */
export function compileSubtotalGte(leaf: LeafOf<'cart.subtotal_gte'>): LeafPredicate {
  const threshold = compileThreshold(leaf);
  return (ctx) => {
    const t = threshold(ctx);
    if (typeof t !== 'number') return t;
    return ctx.subtotal >= t ? OUTCOME.subtotalAtOrAbove : OUTCOME.subtotalBelow;
  };
}

/**
 * `cart.subtotal_lte`: non-gift subtotal <= resolved threshold (equal matches).
 *
 * @example compileSubtotalLte({ type: 'cart.subtotal_lte', value: 9999 })(prepared).matched
 */
export function compileSubtotalLte(leaf: LeafOf<'cart.subtotal_lte'>): LeafPredicate {
  const threshold = compileThreshold(leaf);
  return (ctx) => {
    const t = threshold(ctx);
    if (typeof t !== 'number') return t;
    return ctx.subtotal <= t ? OUTCOME.subtotalAtOrBelow : OUTCOME.subtotalAbove;
  };
}

/**
 * `cart.total_gte`: subtotal + shipping + tax >= resolved threshold.
 *
 * @example compileTotalGte({ type: 'cart.total_gte', value: 5000, currencyOverrides: { EUR: 4500 } })(prepared)
 */
export function compileTotalGte(leaf: LeafOf<'cart.total_gte'>): LeafPredicate {
  const threshold = compileThreshold(leaf);
  return (ctx) => {
    const t = threshold(ctx);
    if (typeof t !== 'number') return t;
    return ctx.total >= t ? OUTCOME.totalAtOrAbove : OUTCOME.totalBelow;
  };
}

/**
 * `cart.item_count_gte`: summed non-gift quantity >= value.
 *
 * @example compileItemCountGte({ type: 'cart.item_count_gte', value: 3 })(prepared).matched
 */
export function compileItemCountGte(leaf: LeafOf<'cart.item_count_gte'>): LeafPredicate {
  const value: unknown = leaf.value;
  if (!isValidThreshold(value)) return () => OUTCOME.invalidThreshold;
  return (ctx) => (ctx.itemCount >= value ? OUTCOME.itemCountReached : OUTCOME.itemCountBelow);
}
