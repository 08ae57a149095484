/** `line.property_equals`: a non-gift line has the property key with the value. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import { preparedLines } from '../evaluate/prepare-context.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { textSchema } from '../schema/text.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) => z.object({ type: z.literal('line.property_equals'), key: textSchema, value: textSchema });
type Leaf = NodeOf<typeof schema>;

/**
 * Removes one pair of wrapping single or double quotes (SPEC: stripped from both sides
 * of `line.property_equals` before comparing).
 *
 * @example stripWrappingQuotes('"gift"') // 'gift'
 */
export function stripWrappingQuotes(text: string): string {
  if (text.length < 2) return text;
  const first = text.charAt(0);
  return (first === '"' || first === "'") && text.charAt(text.length - 1) === first ? text.slice(1, -1) : text;
}

/**
 * A non-gift line carries the key with the value.
 *
 * @example predicate({ type: 'line.property_equals', key: 'gift_wrap', value: '"yes"' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  if (typeof leaf.key !== 'string' || typeof leaf.value !== 'string') return always(OUTCOME.invalidValue);
  const key = stripWrappingQuotes(leaf.key);
  if (key.trim() === '') return always(OUTCOME.emptyPropertyKey);
  const value = stripWrappingQuotes(leaf.value);
  return (ctx) => {
    for (const line of preparedLines(ctx)) {
      const attributes = line.attributes;
      if (attributes === undefined || !Object.hasOwn(attributes, key)) continue;
      const actual = attributes[key];
      if (typeof actual === 'string' && stripWrappingQuotes(actual) === value) return OUTCOME.propertyFound;
    }
    return OUTCOME.propertyNotFound;
  };
}

export const meta = { code: 8, plan: 'growth', fields: ['key', 'value'] } as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'A line has the property',
  initial: { key: '', value: '' },
  fields: [
    { key: 'key', kind: 'text', label: 'property name' },
    { key: 'value', kind: 'text', label: 'property value' },
  ],
} satisfies LeafForm<Leaf>;
