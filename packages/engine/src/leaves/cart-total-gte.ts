/** `cart.total_gte`: subtotal + shipping + tax >= the resolved threshold. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';
import { THRESHOLD_FIELDS, compileThreshold, thresholdSchema } from './threshold-leaf.ts';

export const schema = (z: ZodNamespace) => thresholdSchema(z, 'cart.total_gte');
type Leaf = NodeOf<typeof schema>;

/**
 * Subtotal + shipping + tax >= resolved threshold.
 *
 * @example predicate({ type: 'cart.total_gte', value: 5000 })(prepared).matched
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const threshold = compileThreshold(leaf);
  return (ctx) => {
    const t = threshold(ctx);
    if (typeof t !== 'number') return t;
    return ctx.total >= t ? OUTCOME.totalAtOrAbove : OUTCOME.totalBelow;
  };
}

export const meta = { code: 2, plan: 'free', fields: ['value', 'currencyOverrides', 'marketOverrides'] } as const satisfies LeafMeta<Leaf>;

export const form = { label: 'Cart total is at least', initial: { value: 0 }, fields: THRESHOLD_FIELDS } satisfies LeafForm<Leaf>;
