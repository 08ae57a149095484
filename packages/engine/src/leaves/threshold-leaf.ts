/**
 * What the three threshold leaves (`cart.subtotal_gte`, `cart.subtotal_lte`, `cart.total_gte`)
 * share: the schema, the threshold's resolution, the compact fields and the admin's fields.
 */
import type { LeafOutcome } from '../evaluate/outcomes.ts';
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { PreparedContext } from '../evaluate/prepare-context.ts';
import { isValidThreshold } from '../evaluate/leaf-predicate.ts';
import { thresholdResolver } from '../evaluate/threshold.ts';
import type { ThresholdLeaf } from '../evaluate/threshold.ts';
import { textSchema } from '../schema/text.ts';
import type { ZodNamespace } from './leaf.ts';

/**
 * The schema of a threshold leaf. Thresholds are integers in minor units. Negative values are
 * accepted at save time on purpose: SPEC makes the evaluator fail closed on them, and
 * rejecting them here would make stored trees written by older clients unreadable.
 *
 * @example thresholdSchema(z, 'cart.total_gte').parse({ type: 'cart.total_gte', value: 5000 })
 */
export function thresholdSchema<T extends string>(z: ZodNamespace, type: T) {
  const minorUnits = z.int();
  /** A map currency code or market handle -> threshold in minor units. */
  const overrides = z.record(textSchema, minorUnits);
  return z.object({
    type: z.literal(type),
    value: minorUnits,
    currencyOverrides: overrides.optional(),
    marketOverrides: overrides.optional(),
  });
}

/**
 * The leaf's threshold for a cart, or the outcome that fails it closed: a resolved candidate
 * that is negative, NaN or infinite fails closed rather than falling through to the next
 * step; no candidate (a foreign cart currency without an override) too.
 *
 * @example compileThreshold({ type: 'cart.subtotal_gte', value: 5000 })(prepared) // 5000
 */
export function compileThreshold(leaf: ThresholdLeaf): (ctx: PreparedContext) => number | LeafOutcome {
  const resolve = thresholdResolver(leaf);
  return (ctx) => {
    const candidate = resolve(ctx);
    if (candidate === undefined) return OUTCOME.foreignCurrency;
    return isValidThreshold(candidate) ? candidate : OUTCOME.invalidThreshold;
  };
}

/** The threshold leaves' fields in the admin's tree builder. */
export const THRESHOLD_FIELDS = [
  { key: 'value', kind: 'money', label: 'amount' },
  { key: 'currencyOverrides', kind: 'moneyOverrides', label: 'currency overrides', help: 'Optional. One per line, in that currency: EUR=45.00' },
  {
    key: 'marketOverrides',
    kind: 'overrides',
    label: 'market overrides',
    help: "Optional. One per line: market handle=amount in the market currency's smallest unit (cents: 4500 is 45.00)",
  },
] as const;
