/** `cart.item_count_gte`: summed quantity of the non-gift lines >= value. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { isValidThreshold } from '../evaluate/leaf-predicate.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) => z.object({ type: z.literal('cart.item_count_gte'), value: z.int() });
type Leaf = NodeOf<typeof schema>;

/**
 * Summed non-gift quantity >= value.
 *
 * @example predicate({ type: 'cart.item_count_gte', value: 3 })(prepared).matched
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const value: unknown = leaf.value;
  if (!isValidThreshold(value)) return () => OUTCOME.invalidThreshold;
  return (ctx) => (ctx.itemCount >= value ? OUTCOME.itemCountReached : OUTCOME.itemCountBelow);
}

export const meta = { code: 3, plan: 'growth', fields: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Number of items is at least',
  initial: { value: 1 },
  fields: [{ key: 'value', kind: 'integer', label: 'items' }],
} satisfies LeafForm<Leaf>;
