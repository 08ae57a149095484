/** `cart.subtotal_lte`: subtotal of the non-gift lines <= the resolved threshold. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';
import { THRESHOLD_FIELDS, compileThreshold, thresholdSchema } from './threshold-leaf.ts';

export const schema = (z: ZodNamespace) => thresholdSchema(z, 'cart.subtotal_lte');
type Leaf = NodeOf<typeof schema>;

/**
 * Non-gift subtotal <= resolved threshold (equal matches).
 *
 * @example predicate({ type: 'cart.subtotal_lte', value: 5000 })(prepared).matched
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const threshold = compileThreshold(leaf);
  return (ctx) => {
    const t = threshold(ctx);
    if (typeof t !== 'number') return t;
    return ctx.subtotal <= t ? OUTCOME.subtotalAtOrBelow : OUTCOME.subtotalAbove;
  };
}

export const meta = { code: 1, plan: 'free', fields: ['value', 'currencyOverrides', 'marketOverrides'] } as const satisfies LeafMeta<Leaf>;

export const form = { label: 'Cart subtotal is at most', initial: { value: 0 }, fields: THRESHOLD_FIELDS } satisfies LeafForm<Leaf>;
