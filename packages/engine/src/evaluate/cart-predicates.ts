import type { LeafOf } from '../schema/leaf-node.ts';
import type { LeafOutcome } from './outcomes.ts';
import * as OUTCOME from './outcome-table.ts';
import type { PreparedContext } from './prepare-context.ts';
import type { LeafPredicate } from './leaf-predicate.ts';
import { isValidThreshold } from './leaf-predicate.ts';
import { thresholdResolver } from './threshold.ts';

type ThresholdLeaf = LeafOf<'cart.subtotal_gte' | 'cart.subtotal_lte' | 'cart.total_gte'>;

// A resolved candidate that is negative, NaN or infinite fails closed rather than falling
// through to the next step; no candidate (a foreign cart currency without an override) too.
function compileThreshold(leaf: ThresholdLeaf): (ctx: PreparedContext) => number | LeafOutcome {
  const resolve = thresholdResolver(leaf);
  return (ctx) => {
    const candidate = resolve(ctx);
    if (candidate === undefined) return OUTCOME.foreignCurrency;
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
