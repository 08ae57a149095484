/** `discount.code_equals`: this code is applied (compared uppercased and trimmed). */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { textSchema } from '../schema/text.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) => z.object({ type: z.literal('discount.code_equals'), value: textSchema });
type Leaf = NodeOf<typeof schema>;

/**
 * The code is applied (uppercased, trimmed on both sides).
 *
 * @example predicate({ type: 'discount.code_equals', value: 'save10' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const code = typeof leaf.value === 'string' ? leaf.value.trim().toUpperCase() : '';
  if (code === '') return always(OUTCOME.invalidValue);
  return (ctx) => (ctx.discountCodes.has(code) ? OUTCOME.codeMatched : OUTCOME.codeNotMatched);
}

export const meta = { code: 16, plan: 'pro', fields: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = { label: 'The discount code is', initial: { value: '' }, fields: [{ key: 'value', kind: 'text', label: 'code' }] } satisfies LeafForm<Leaf>;
