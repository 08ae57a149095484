/** `discount.code_present`: at least one discount code is applied. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) => z.object({ type: z.literal('discount.code_present') });
type Leaf = NodeOf<typeof schema>;

/**
 * At least one discount code is applied.
 *
 * @example predicate()(prepared).matched
 */
export function predicate(): LeafPredicate {
  return (ctx) => (ctx.discountCodes.size > 0 ? OUTCOME.codePresent.yes : OUTCOME.noCode.no);
}

export const meta = { code: 14, plan: 'pro', fields: [] } as const satisfies LeafMeta<Leaf>;

export const form = { label: 'A discount code is applied', initial: {}, fields: [] } satisfies LeafForm<Leaf>;
