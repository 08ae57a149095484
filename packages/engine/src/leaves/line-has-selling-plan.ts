/** `line.has_selling_plan`: whether any non-gift subscription line exists. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) =>
  z.object({ type: z.literal('line.has_selling_plan'), value: z.enum(['has_subscription', 'no_subscription', '']).optional() });
type Leaf = NodeOf<typeof schema>;

/**
 * Whether a non-gift subscription line exists (empty = has).
 *
 * @example predicate({ type: 'line.has_selling_plan', value: 'no_subscription' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const wanted = leaf.value === undefined || leaf.value === '' ? 'has_subscription' : leaf.value;
  if (wanted === 'has_subscription') {
    return (ctx) => (ctx.hasSubscriptionLine ? OUTCOME.subscriptionInCart.yes : OUTCOME.noSubscriptionInCart.no);
  }
  if (wanted === 'no_subscription') {
    return (ctx) => (ctx.hasSubscriptionLine ? OUTCOME.subscriptionInCart.no : OUTCOME.noSubscriptionInCart.yes);
  }
  return always(OUTCOME.invalidValue);
}

export const meta = { code: 9, plan: 'growth', fields: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Subscription lines',
  initial: { value: 'has_subscription' },
  fields: [
    {
      key: 'value',
      kind: 'choice',
      label: 'which',
      options: [
        { label: 'Has a subscription line', value: 'has_subscription' },
        { label: 'Has no subscription line', value: 'no_subscription' },
        { label: 'Has a subscription line (default)', value: '' },
      ],
    },
  ],
} satisfies LeafForm<Leaf>;
